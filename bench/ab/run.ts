/**
 * An interleaved A/B of Worker variants (bench/ab/variants.ts), each in its own `wrangler dev`:
 * every round sends a bare `GET /health`, a plain `tools/call` of `echo`, one of
 * `batch_process {items:1, secondsPerItem:0}` and a task-augmented `countdown {seconds:1}` (the
 * task's creation) to every variant, each round in its own order (bench/order.ts), so all variants
 * meet the same machine load and the same neighbours. Prints p50s per run.
 *
 *   npm exec -- node bench/ab/run.ts main no-transition-log
 *
 * A name "peer" is the agents createMcpHandler peer (bench/peers/workers), for the bare and echo rows
 * (AB_SERIES=bare,echo runs only those).
 *
 * AB_RUNS (2), AB_ROUNDS (120), AB_CONFIGS ("bench,default": state on tmpfs with wrangler's local
 * observability collector off, as the bench runs; or on disk with it on, as `npm run dev` runs).
 * AB_BURST=200 also creates that many 2-s countdowns at once on each variant in turn, after the
 * latency rounds (the peers' burst: bench/peers/concurrency.ts), and prints the wall time.
 */
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { roundOrder } from "../order.ts";
import { startDevServer } from "../../test/e2e/support/wrangler-dev.ts";
import { PEER_CONFIGS } from "../peers/servers.ts";
import { get, oneSocket, rpc, type RpcTarget } from "../peers/client.ts";
import { burstTarget, countdownBurst } from "../peers/concurrency.ts";
import { STATE_ROOT, startBenchServer, summarize } from "../support.ts";
import { devOptions, VARIANTS, writeVariant } from "./variants.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env["AB_RUNS"] ?? 2);
const ROUNDS = Number(process.env["AB_ROUNDS"] ?? 120);
const CONFIGS = (process.env["AB_CONFIGS"] ?? "bench,default").split(",");
const BURST = Number(process.env["AB_BURST"] ?? 0);
const names = process.argv.slice(2);
if (names.length < 2) throw new Error(`name two or more variants: ${Object.keys(VARIANTS).join(", ")}`);

const ECHO = { name: "echo", arguments: { text: "hello" } };
const QUICK_TASK_TOOL = { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } };
const COUNTDOWN_TASK = { name: "countdown", arguments: { seconds: 1 }, task: {} };
const ALL_SERIES = ["bare", "echo", "batch", "create"] as const;
type Series = (typeof ALL_SERIES)[number];
const SERIES = (process.env["AB_SERIES"]?.split(",") ?? ALL_SERIES).filter((s): s is Series =>
  (ALL_SERIES as readonly string[]).includes(s),
);

async function callOk(target: RpcTarget, params: Record<string, unknown>, text: string): Promise<number> {
  const { ms, result } = await rpc(target, "tools/call", params);
  if (!JSON.stringify(result["content"]).includes(text))
    throw new Error(`unexpected answer: ${JSON.stringify(result).slice(0, 200)}`);
  return ms;
}

const step: Record<Series, (t: RpcTarget) => Promise<number>> = {
  bare: (t) => get(t, "/health"),
  echo: (t) => callOk(t, ECHO, "hello"),
  batch: (t) => callOk(t, QUICK_TASK_TOOL, "Processed 1 items."),
  create: async (t) => {
    const { ms, result } = await rpc(t, "tools/call", COUNTDOWN_TASK);
    if (typeof (result["task"] as { taskId?: unknown } | undefined)?.taskId !== "string")
      throw new Error(`no task: ${JSON.stringify(result).slice(0, 200)}`);
    return ms;
  },
};

const PEER = "peer";
const configs = new Map(
  names.map((name) => [name, name === PEER ? join(ROOT, PEER_CONFIGS.createMcpHandler) : writeVariant(name)]),
);
for (const name of names)
  console.log(
    `${name}: ${name === PEER ? "the agents createMcpHandler peer (bench/peers)" : VARIANTS[name]?.description}`,
  );

for (const config of CONFIGS) {
  const bench = config === "bench";
  for (let run = 1; run <= RUNS; run++) {
    const servers = [];
    for (const name of names) {
      const options = {
        config: configs.get(name),
        observability: !bench,
        ...devOptions(name),
        ...(bench ? {} : { stateRoot: undefined }),
      };
      servers.push(await (name === PEER ? startDevServer(options) : startBenchServer(options)));
    }
    try {
      const targets = servers.map((s) => ({ url: s.url, agent: oneSocket() }));
      const samples = names.map(() => ({
        bare: [] as number[],
        echo: [] as number[],
        batch: [] as number[],
        create: [] as number[],
      }));
      const calls: [number, Series][] = names.flatMap((_, v) => SERIES.map((s): [number, Series] => [v, s]));
      for (let round = -20; round < ROUNDS; round++) {
        for (const k of roundOrder(calls.length, Math.abs(round))) {
          const call = calls[k];
          if (!call) continue;
          const [v, series] = call;
          const target = targets[v];
          if (!target) continue;
          const ms = await step[series](target);
          if (round >= 0) samples[v]?.[series].push(ms);
        }
      }
      console.log(
        `\n${config} config (state in ${bench ? (STATE_ROOT ?? "the OS temp dir") : "the OS temp dir"}, collector ${bench ? "off" : "on"}), run ${run}, load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
      names.forEach((name, v) => {
        const s = samples[v];
        if (!s) return;
        const [bare, echo, batch, create] = [
          summarize(s.bare).p50,
          summarize(s.echo).p50,
          summarize(s.batch).p50,
          summarize(s.create).p50,
        ];
        if (!SERIES.includes("batch")) {
          const base = samples[0];
          const ratio = (mine: number[], theirs: number[] | undefined) =>
            theirs?.length ? ` (${(summarize(mine).p50 / summarize(theirs).p50).toFixed(2)}× ${names[0]})` : "";
          console.log(
            `  ${name.padEnd(26)} bare ${bare.toFixed(2)} ms${ratio(s.bare, base?.bare)}  echo ${echo.toFixed(2)} ms${ratio(s.echo, base?.echo)}`,
          );
          return;
        }
        console.log(
          `  ${name.padEnd(26)} bare ${bare.toFixed(2)} ms  echo ${echo.toFixed(2)} ms  batch_process ${batch.toFixed(2)} ms (${(batch / echo).toFixed(2)}× echo)  creation ${create.toFixed(2)} ms (${(create / bare).toFixed(2)}× bare)`,
        );
      });
      if (BURST > 0) {
        // Who goes first rotates from run to run; a pause lets each burst's leftovers settle.
        for (let k = 0; k < servers.length; k++) {
          const v = (k + run) % servers.length;
          const server = servers[v];
          if (!server) continue;
          const burst = await countdownBurst(burstTarget(server.url), BURST);
          console.log(
            `  ${String(names[v]).padEnd(26)} ${BURST} countdowns at once: wall ${(burst.wallMs / 1000).toFixed(2)} s, last created at ${(burst.createdMs / 1000).toFixed(2)} s`,
          );
          await new Promise((r) => setTimeout(r, 2000));
        }
      }
    } finally {
      for (const server of servers) await server.stop();
    }
  }
}
