/**
 * An interleaved A/B of two servers that are already running (for example the code before a change
 * in a git worktree and the code after it, each under `wrangler dev`): every round sends a bare
 * `GET /health`, a plain `echo`, a plain `batch_process {items:1, secondsPerItem:0}`, a task-augmented
 * `countdown {seconds:1}` and a `tasks/get` of that task to each, in an order that alternates from
 * round to round, and prints the p50s and B/A. Unlike bench/ab/run.ts it compares two trees, not two
 * configurations of this one.
 *
 *   npm exec -- node bench/ab/two-servers.ts http://127.0.0.1:8801 http://127.0.0.1:8802
 *
 * AB_ROUNDS (200).
 */
import { summarize } from "../support.ts";

const [a, b] = process.argv.slice(2);
if (!a || !b) throw new Error("name two running servers: node bench/ab/two-servers.ts URL_A URL_B");
const ROUNDS = Number(process.env["AB_ROUNDS"] ?? 200);
const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-11-25",
};
const SERIES = ["bare", "echo", "batch", "create", "get"] as const;
type Series = (typeof SERIES)[number];

let nextId = 1;
async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200 || !text.includes('"result"'))
    throw new Error(`${method} on ${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return { ms, text };
}

const lastTask = new Map<string, string>();
const steps: Record<Series, (url: string) => Promise<number>> = {
  bare: async (url) => {
    const started = performance.now();
    await (await fetch(`${url}/health`)).text();
    return performance.now() - started;
  },
  echo: async (url) => (await rpc(url, "tools/call", { name: "echo", arguments: { text: "hi" } })).ms,
  batch: async (url) =>
    (await rpc(url, "tools/call", { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } })).ms,
  create: async (url) => {
    const { ms, text } = await rpc(url, "tools/call", { name: "countdown", arguments: { seconds: 1 }, task: {} });
    const taskId = /"taskId":"([0-9a-f]+)"/.exec(text)?.[1];
    if (!taskId) throw new Error(`no task from ${url}: ${text.slice(0, 200)}`);
    lastTask.set(url, taskId);
    return ms;
  },
  get: async (url) => (await rpc(url, "tasks/get", { taskId: lastTask.get(url) })).ms,
};

const samples = new Map<string, Record<Series, number[]>>(
  [a, b].map((url) => [url, { bare: [], echo: [], batch: [], create: [], get: [] }]),
);
for (let i = 0; i < 20; i++) for (const url of [a, b]) for (const series of SERIES) await steps[series](url);
for (let i = 0; i < ROUNDS; i++) {
  const order = i % 2 === 0 ? [a, b] : [b, a];
  for (const series of SERIES) for (const url of order) samples.get(url)?.[series].push(await steps[series](url));
}
const p50 = (url: string, series: Series): number => summarize(samples.get(url)?.[series] ?? []).p50;
for (const series of SERIES) {
  const pa = p50(a, series);
  const pb = p50(b, series);
  console.log(`${series.padEnd(7)} A ${pa.toFixed(2)} ms  B ${pb.toFixed(2)} ms  B/A ${(pb / pa).toFixed(2)}`);
}
// Two servers running the same code differ by a few percent (which core, which turn), so a change
// to the task path reads best against each server's own echo: the peers bench's ratio, per server.
console.log(
  `batch / echo  A ${(p50(a, "batch") / p50(a, "echo")).toFixed(3)}×  B ${(p50(b, "batch") / p50(b, "echo")).toFixed(3)}×`,
);
