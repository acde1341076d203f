/**
 * Tells the host the view's size whenever the document's changes, as ext-apps' `autoResize` does:
 * once per animation frame at most, the height measured as the content's (`max-content`), so a
 * host that sized the iframe smaller still learns how tall the card wants to be.
 */
export function watchSize(send: (size: { width: number; height: number }) => void): () => void {
  let scheduled = false;
  let last = { width: 0, height: 0 };
  const measure = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      const root = document.documentElement;
      const height = root.style.height;
      root.style.height = "max-content";
      const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(root.getBoundingClientRect().height) };
      root.style.height = height;
      if (size.width === last.width && size.height === last.height) return;
      last = size;
      send(size);
    });
  };
  measure();
  const observer = new ResizeObserver(measure);
  observer.observe(document.documentElement);
  observer.observe(document.body);
  return () => observer.disconnect();
}
