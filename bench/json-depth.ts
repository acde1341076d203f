/**
 * What the shared JSON depth check costs next to the JSON.parse it guards (src/http/json-input.ts),
 * on a typical tools/call body and on a 70 KB one. Plain Node, no server:
 * `npm exec -- node bench/json-depth.ts` (figures in docs/security.md, "Input limits").
 */
import { nestsDeeperThan, parseJsonInput, MAX_JSON_DEPTH } from "../src/http/json-input.ts";

const small = JSON.stringify({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "countdown", arguments: { seconds: 5 }, task: { ttl: 60000 }, _meta: { progressToken: "p" } },
});
const big = JSON.stringify({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: {
    name: "echo",
    arguments: { text: "x".repeat(60000), list: Array.from({ length: 500 }, (_, i) => ({ i, s: "abc" })) },
  },
});
const deep = `{"a":${"[".repeat(8000)}${"]".repeat(8000)}}`;

/** Mean ns per call over `n` calls, after a warm-up of n/10. */
function nsPerCall(fn: () => unknown, n: number): number {
  for (let i = 0; i < n / 10; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - start) / n;
}

const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;
for (const [name, text, n] of [
  ["typical", small, 200_000],
  ["70 KB", big, 2_000],
  ["8,000 deep (refused)", deep, 2_000],
] as const) {
  const parse = nsPerCall(() => JSON.parse(text), n);
  const scan = nsPerCall(() => nestsDeeperThan(text, MAX_JSON_DEPTH), n);
  const both = nsPerCall(() => parseJsonInput(text), n);
  console.log(
    `${name} (${text.length} B): JSON.parse ${us(parse)}, depth scan ${us(scan)} (${(scan / parse).toFixed(2)}× the parse), parseJsonInput ${us(both)}`,
  );
}
