/** Reading a log back in pages: the one loop behind every replay (task feeds, session GET streams). */

/**
 * Reads the events after `after` in pages of `pageSize` and hands each page to `onPage`, until a
 * page is short (the end of the log) or `onPage` returns false.
 */
export function replayPages<E extends { seq: number }>(
  read: (after: number, limit: number) => readonly E[],
  after: number,
  pageSize: number,
  onPage: (page: readonly E[]) => boolean | void,
): void {
  let sent = after;
  for (;;) {
    const page = read(sent, pageSize);
    if (page.length > 0 && onPage(page) === false) return;
    if (page.length < pageSize) return;
    sent = page[page.length - 1]?.seq ?? sent;
  }
}
