/**
 * Long text cut to a bound by its middle: an error line starts with what failed and often ends with
 * why (a runtime's error text after a list of ids), so both ends are kept. Pure.
 */

/** `text` at most `max` characters: its head and tail kept, the middle replaced by a marker saying how much went. */
export function clipMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (cut: number) => ` […${cut} characters cut…] `;
  // The marker's own length depends on the count; the longest count it can name is text.length.
  const room = Math.max(0, max - marker(text.length).length);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}${marker(cut)}${tail > 0 ? text.slice(-tail) : ""}`;
}
