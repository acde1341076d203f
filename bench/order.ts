/**
 * The order in which one round of interleaved sampling sends its series. A rotation (series
 * `(round + k) % n`) shifts where a round starts but keeps each series behind the same neighbour,
 * so whatever that neighbour leaves running (a creation's background work, another server's busy
 * process) lands on the same series in every round. A Williams design does not: over a cycle of
 * rounds (n for an even n, 2n for an odd one) each series comes right after each other series
 * equally often, and each one is first in a round equally often.
 */
export function roundOrder(n: number, round: number): number[] {
  if (!Number.isInteger(n) || n < 1) throw new Error(`roundOrder needs a positive count of series, got ${n}`);
  // The design's first row: 0, 1, n-1, 2, n-2, …; every other row adds its number to each entry.
  const first = [0];
  for (let low = 1, high = n - 1; first.length < n; ) first.push(first.length % 2 === 1 ? low++ : high--);
  const cycle = n % 2 === 0 ? n : 2 * n;
  const row = Math.trunc(round) % cycle;
  const order = first.map((series) => (series + row) % n);
  // An odd n needs the mirrored rows too for every ordered pair to meet equally often.
  return row < n ? order : order.reverse();
}

/** One series: its name, and one timed sample of it (ms). */
export type TimedStep<K extends string> = readonly [K, () => Promise<number>];

/** `rounds` rounds of every step, each round in its own order (roundOrder), each sample pushed to its series in `into`. */
export async function sampleRounds<K extends string>(
  steps: readonly TimedStep<K>[],
  rounds: number,
  into: Record<K, number[]>,
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const k of roundOrder(steps.length, round)) {
      const step = steps[k];
      if (step) into[step[0]].push(await step[1]());
    }
  }
}
