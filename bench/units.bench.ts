/**
 * What the local runtime charges per unit of work a task is made of: a Durable Object call, one
 * more hop between objects, a new object (locally a new SQLite file), a SQL statement, a commit.
 * Each is timed inside a Worker of its own (bench/units/worker/), N in a row per request, less a
 * request doing nothing, so neither HTTP nor the client is in the figure. Multiplied by the counts
 * of the scale section (what one task does), they say where a task's time on this machine goes:
 * docs/peers.md, "What the local runtime charges per unit".
 */
import { get, oneSocket, type RpcTarget } from "./peers/client.ts";
import { startDevServer } from "../test/e2e/support/wrangler-dev.ts";
import { percentile, STATE_ROOT } from "./support.ts";

const CONFIG = "bench/units/worker/wrangler.toml";
const ROUNDS = Number(process.env["BENCH_UNITS_ROUNDS"] ?? 5);
/** BENCH_UNITS_COLLECTOR=true: with wrangler's local observability collector on, as `wrangler dev` starts by default. */
const COLLECTOR = process.env["BENCH_UNITS_COLLECTOR"] === "true";

/** Operation, how many per request, what it stands for in a task. */
const OPS: [string, number, string][] = [
  ["rpc", 300, "a Worker's call to an object (create, get, lease)"],
  ["rpc-10-at-once", 300, "the same, ten in flight: closer to its CPU cost alone"],
  ["relay", 200, "a call that makes one more between objects (announce, track, update)"],
  ["new-object", 100, "a call to an object never used before (every task is one)"],
  ["new-object-tables", 100, "the same, making a task's three tables (the pool's prepare)"],
  ["sql-read", 3000, "one SQL statement that reads"],
  ["sql-write", 3000, "one INSERT, committed with others of its turn"],
  ["commit", 300, "a call whose one INSERT is committed before it answers"],
];

export default async function units(report: (line: string) => void): Promise<void> {
  const server = await startDevServer({
    config: CONFIG,
    observability: COLLECTOR,
    ...(STATE_ROOT !== undefined && { stateRoot: STATE_ROOT }),
  });
  try {
    report(
      `server: wrangler dev of ${CONFIG} at ${server.url}; state in ${STATE_ROOT ?? "the OS temp dir"}; local collector ${COLLECTOR ? "on" : "off"}; ${ROUNDS} rounds, median`,
    );
    const target: RpcTarget = { url: server.url, agent: oneSocket() };
    // Warm every path (and the one existing object each op uses) before timing.
    for (const [op] of OPS) await get(target, `/${op}?n=10`);
    const perOp = new Map<string, number[]>(OPS.map(([op]) => [op, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [op, n] of OPS) {
        const none = await get(target, "/none");
        const ms = await get(target, `/${op}?n=${n}`);
        perOp.get(op)?.push(((ms - none) * 1000) / n);
      }
    }
    for (const [op, , meaning] of OPS)
      report(
        `${op.padEnd(18)} ${percentile(perOp.get(op) ?? [], 50)
          .toFixed(0)
          .padStart(6)} µs  ${meaning}`,
      );
  } finally {
    await server.stop();
  }
}
