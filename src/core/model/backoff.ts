/** Exponential backoff, the one formula for job retries, queue hand-overs and webhook deliveries. */

/** The wait before attempt `failures + 1`: `base · 2^(failures−1)`, at most `cap` (all in the caller's unit). */
export function backoff(failures: number, base: number, cap: number): number {
  return Math.min(base * 2 ** Math.max(0, failures - 1), cap);
}
