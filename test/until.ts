/**
 * How long a test waits for what it awaits: until it happens. vi.waitFor needs a bound; this one
 * guards against a hang and says nothing of speed. The same wait (a principal's pool filling up)
 * took 1-2 s on an idle 2-core machine and 20 s beside a second `npm test`, and a bound near the
 * idle figure made a slow machine read as a broken build (docs/testing.md, "Waits").
 */
const UNTIL_MS = 100_000;

/** vi.waitFor's and expect.poll's options: check every `interval` ms until the check passes. */
export function until(interval = 100): { timeout: number; interval: number } {
  return { timeout: UNTIL_MS, interval };
}
