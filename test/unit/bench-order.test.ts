// The benches' interleaved rounds (bench/order.ts): over one cycle of rounds every series follows
// every other equally often and leads a round equally often. A rotation, which the benches used
// before, keeps each series behind one neighbour and fails the first check.
import { describe, expect, it } from "vitest";
import { roundOrder } from "../../bench/order";

/** How often each ordered pair of series is adjacent in a round, and how often each leads, over `rounds`. */
function tally(n: number, rounds: number, order: (n: number, round: number) => number[]) {
  const pairs = new Map<string, number>();
  const leads = new Map<number, number>();
  for (let round = 0; round < rounds; round++) {
    const row = order(n, round);
    expect([...row].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    leads.set(row[0] ?? -1, (leads.get(row[0] ?? -1) ?? 0) + 1);
    for (let k = 1; k < n; k++) {
      const pair = `${row[k - 1]}>${row[k]}`;
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
  }
  return { pairs, leads };
}

describe("roundOrder", () => {
  for (const n of [2, 3, 4, 5, 7, 8]) {
    it(`${n} series: each follows each other equally often over a cycle, and each leads equally often`, () => {
      const cycle = n % 2 === 0 ? n : 2 * n;
      const { pairs, leads } = tally(n, cycle, roundOrder);
      expect(pairs.size).toBe(n * (n - 1));
      expect(new Set(pairs.values())).toEqual(new Set([cycle / n]));
      expect(new Set(leads.values())).toEqual(new Set([cycle / n]));
    });
  }

  it("a rotation does not: each series keeps one neighbour", () => {
    const rotation = (n: number, round: number) => Array.from({ length: n }, (_, k) => (round + k) % n);
    // Only "i then i+1": 8 of the 56 ordered pairs ever meet.
    expect(tally(8, 8, rotation).pairs.size).toBe(8);
  });

  it("repeats after its cycle, and refuses a count that is not a positive integer", () => {
    expect(roundOrder(8, 11)).toEqual(roundOrder(8, 3));
    expect(roundOrder(5, 13)).toEqual(roundOrder(5, 3));
    expect(() => roundOrder(0, 0)).toThrow(/positive count/);
  });
});
