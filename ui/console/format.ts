/** Times as people read them: "12 s ago", "took 3 min 5 s". No DOM, so unit-tested in Node. */

/** How long ago, coarser as it grows: seconds, minutes, hours, then days. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 5) return "just now";
  if (s < 60) return `${s} s ago`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

/** A duration with its two largest units: "850 ms", "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const [min, sec] = [Math.floor(s / 60), s % 60];
  if (min < 60) return sec ? `${min} min ${sec} s` : `${min} min`;
  const [h, m] = [Math.floor(min / 60), min % 60];
  if (h < 24) return m ? `${h} h ${m} min` : `${h} h`;
  const [d, hh] = [Math.floor(h / 24), h % 24];
  return hh ? `${d} d ${hh} h` : `${d} d`;
}

/** "7 / 30", or "7" when there is no total; whole numbers as they are, others to two places. */
export function fraction(progress: number, total: number | undefined): string {
  const n = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  return total === undefined ? n(progress) : `${n(progress)} / ${n(total)}`;
}

/** Percent of a bar, whole: 0-100. */
export const percent = (value: number, max: number): number =>
  max > 0 ? Math.round((Math.min(value, max) / max) * 100) : 0;
