/**
 * Issue 35: where the slowest status reads and creations go. Ours and a bare task Worker
 * (bench/tails/worker/: the same storage calls, no code of ours) run side by side, in the
 * configurations of the peers section ("bench": state on tmpfs; "default": on disk, as `npm run
 * dev`), sampled in rounds that rotate: the bare route, a task creation followed at once by a
 * `tasks/get` of it, and a `tasks/get` of a task that ended before the rounds began; the bare
 * Worker's creation also with its job in an object of its own (`split`); and on each a plain call of
 * a tool that ends at once. With the Node peer's creation and read. Figures are p50 and p99 per run
 * and their ratios in the same run (docs/peers.md, "Tails (issue 35)").
 *
 * BENCH_TAILS_RUNS (2), BENCH_TAILS_ROUNDS (300), BENCH_TAILS_CONFIGS ("bench,default").
 */
import { resolve } from "node:path";
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { sampleRounds } from "./order.ts";
import { ms, ratio, STATE_ROOT, startBenchServer, summarize, type Summary } from "./support.ts";
import { awaitResults, get, oneSocket, rpc, send, taskIdOf, type RpcTarget } from "./peers/client.ts";
import { startDevServer, type DevServer } from "../test/e2e/support/wrangler-dev.ts";
import { startNodePeer } from "./peers/servers.ts";

const RUNS = Number(process.env["BENCH_TAILS_RUNS"] ?? 2);
const ROUNDS = Number(process.env["BENCH_TAILS_ROUNDS"] ?? 300);
const WARMUP_ROUNDS = 20;
const CONFIGS = (process.env["BENCH_TAILS_CONFIGS"] ?? "bench,default").split(",");
const BARE_CONFIG = "bench/tails/worker/wrangler.toml";
const COUNTDOWN = { name: "countdown", arguments: { seconds: 1 } };
/** A task-capable tool that ends at once, called plainly (the peers section's goal-1 row). */
const PLAIN_CALL = { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } };

type Series =
  | "oursBare"
  | "oursCreate"
  | "oursFresh"
  | "oursOld"
  | "bareRoute"
  | "bareCreate"
  | "bareFresh"
  | "bareSplitCreate"
  | "bareSplitFresh"
  | "bareOld"
  | "nodeCreate"
  | "nodeFresh"
  | "oursPlain"
  | "barePlain";

type Report = (line: string) => void;

export default async function tails(report: Report): Promise<void> {
  const node = await startNodePeer();
  try {
    for (const config of CONFIGS) await tailsOf(config, node.url, report);
  } finally {
    await node.stop();
  }
}

async function tailsOf(config: string, nodeUrl: string, report: Report): Promise<void> {
  const stateRoot = config === "bench" ? STATE_ROOT : resolve(import.meta.dirname, "../.wrangler/bench-state");
  if (stateRoot !== undefined) mkdirSync(stateRoot, { recursive: true });
  const servers: DevServer[] = [];
  try {
    // One after another: two wrangler starts at once on two cores time out now and then.
    const ours = await startBenchServer({ observability: false, ...(stateRoot !== undefined && { stateRoot }) });
    servers.push(ours);
    const bare = await startDevServer({
      config: BARE_CONFIG,
      observability: false,
      ...(stateRoot !== undefined && { stateRoot }),
    });
    servers.push(bare);
    report("");
    report(
      `-- ${config} config: state in ${stateRoot ?? "the OS temp dir"}; ours ${ours.url}, bare task Worker ${bare.url}, Node in-memory tasks ${nodeUrl}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    const rounds = await prepare(ours.url, bare.url, nodeUrl);
    await sample(rounds, WARMUP_ROUNDS);
    for (let run = 1; run <= RUNS; run++) reportRun(report, run, await sample(rounds, ROUNDS));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

interface Targets {
  ours: RpcTarget;
  bare: RpcTarget;
  /** The SDK's in-memory task server on Node (the peers section's P3). */
  node: RpcTarget;
  oursOldTask: string;
  bareOldTask: string;
  created: string[];
  nodeCreated: string[];
  sequence: number;
}

async function prepare(oursUrl: string, bareUrl: string, nodeUrl: string): Promise<Targets> {
  const ours = { url: oursUrl, agent: oneSocket() };
  const node = { url: nodeUrl, agent: oneSocket() };
  const bare = { url: bareUrl, agent: oneSocket() };
  const oursOldTask = await createCountdown(ours);
  await rpc(ours, "tasks/result", { taskId: oursOldTask });
  const bareOldTask = `old-${Date.now()}`;
  await send(bare, "POST", `/create?id=${bareOldTask}`);
  return { ours, bare, node, oursOldTask, bareOldTask, created: [], nodeCreated: [], sequence: 0 };
}

/** A task-augmented countdown on ours or the Node peer: its id. */
async function createCountdown(ours: RpcTarget): Promise<string> {
  const { result } = await rpc(ours, "tools/call", { ...COUNTDOWN, task: {} });
  return taskIdOf(result, ours.url);
}

async function sample(t: Targets, rounds: number): Promise<Record<Series, Summary>> {
  const series: Record<Series, number[]> = {
    oursBare: [],
    oursCreate: [],
    oursFresh: [],
    oursOld: [],
    bareRoute: [],
    bareCreate: [],
    bareFresh: [],
    bareSplitCreate: [],
    bareSplitFresh: [],
    bareOld: [],
    nodeCreate: [],
    nodeFresh: [],
    oursPlain: [],
    barePlain: [],
  };
  const bareTask = async (split: boolean) => {
    const id = `t-${Date.now()}-${t.sequence++}`;
    const made = await send(t.bare, "POST", `/create?id=${id}${split ? "&split=1" : ""}`);
    series[split ? "bareSplitFresh" : "bareFresh"].push(await get(t.bare, `/get?id=${id}`));
    return made;
  };
  const steps: [Series, () => Promise<number>][] = [
    ["oursBare", () => get(t.ours, "/health")],
    [
      "oursCreate",
      async () => {
        const started = performance.now();
        const taskId = await createCountdown(t.ours);
        const made = performance.now() - started;
        t.created.push(taskId);
        series.oursFresh.push((await rpc(t.ours, "tasks/get", { taskId })).ms);
        return made;
      },
    ],
    ["oursOld", async () => (await rpc(t.ours, "tasks/get", { taskId: t.oursOldTask })).ms],
    [
      "oursPlain",
      async () => {
        const { ms: took, result } = await rpc(t.ours, "tools/call", PLAIN_CALL);
        if (!JSON.stringify(result["content"]).includes("Processed 1 items."))
          throw new Error(`the plain call did not end at once: ${JSON.stringify(result).slice(0, 200)}`);
        return took;
      },
    ],
    ["bareRoute", () => get(t.bare, "/health")],
    ["barePlain", () => send(t.bare, "POST", "/call")],
    ["bareCreate", () => bareTask(false)],
    ["bareSplitCreate", () => bareTask(true)],
    ["bareOld", () => get(t.bare, `/get?id=${t.bareOldTask}`)],
    [
      "nodeCreate",
      async () => {
        const started = performance.now();
        const taskId = await createCountdown(t.node);
        const made = performance.now() - started;
        t.nodeCreated.push(taskId);
        series.nodeFresh.push((await rpc(t.node, "tasks/get", { taskId })).ms);
        return made;
      },
    ],
  ];
  await sampleRounds(steps, rounds, series);
  // The countdowns end before the next run; the bare Worker's jobs end on their own a second later.
  await awaitResults(t.ours.url, t.created.splice(0));
  await awaitResults(t.node.url, t.nodeCreated.splice(0));
  await new Promise((wait) => setTimeout(wait, 1500));
  return {
    oursBare: summarize(series.oursBare),
    oursCreate: summarize(series.oursCreate),
    oursFresh: summarize(series.oursFresh),
    oursOld: summarize(series.oursOld),
    bareRoute: summarize(series.bareRoute),
    bareCreate: summarize(series.bareCreate),
    bareFresh: summarize(series.bareFresh),
    bareSplitCreate: summarize(series.bareSplitCreate),
    bareSplitFresh: summarize(series.bareSplitFresh),
    bareOld: summarize(series.bareOld),
    nodeCreate: summarize(series.nodeCreate),
    nodeFresh: summarize(series.nodeFresh),
    oursPlain: summarize(series.oursPlain),
    barePlain: summarize(series.barePlain),
  };
}

function reportRun(report: Report, run: number, s: Record<Series, Summary>): void {
  const line = (label: string, x: Summary) => `${label} ${ms(x.p50)} / ${ms(x.p99)}`;
  report(`run ${run} (load average ${loadavg()[0]?.toFixed(1)}), n=${s.oursBare.n} rounds, p50 / p99:`);
  report(
    `  ours: ${line("bare", s.oursBare)}; ${line("creation", s.oursCreate)}; ${line("tasks/get right after", s.oursFresh)}; ${line("tasks/get long-finished", s.oursOld)}`,
  );
  report(
    `  bare task Worker: ${line("bare", s.bareRoute)}; ${line("creation", s.bareCreate)}; ${line("get right after", s.bareFresh)}; ${line("split: creation", s.bareSplitCreate)}; ${line("get right after", s.bareSplitFresh)}; ${line("get long-finished", s.bareOld)}`,
  );
  report(`  Node in-memory tasks: ${line("creation", s.nodeCreate)}; ${line("tasks/get right after", s.nodeFresh)}`);
  report(
    `  plain call of a tool that ends at once: ours ${ms(s.oursPlain.p50)} / ${ms(s.oursPlain.p99)}, bare task Worker ${ms(s.barePlain.p50)} / ${ms(s.barePlain.p99)}; p99 / own bare route: ours ${ratio(s.oursPlain.p99 / s.oursBare.p99)}, bare task Worker ${ratio(s.barePlain.p99 / s.bareRoute.p99)}`,
  );
  report(
    `  p99 ratios: ours fresh / Node fresh ${ratio(s.oursFresh.p99 / s.nodeFresh.p99)} (goal ≤ 3×), bare task Worker fresh / Node fresh ${ratio(s.bareFresh.p99 / s.nodeFresh.p99)}; ours fresh / old ${ratio(s.oursFresh.p99 / s.oursOld.p99)} (goal ≤ 1.5×), creation / bare ${ratio(s.oursCreate.p99 / s.oursBare.p99)} (goal ≤ 3×); bare task Worker fresh / old ${ratio(s.bareFresh.p99 / s.bareOld.p99)}, split ${ratio(s.bareSplitFresh.p99 / s.bareOld.p99)}, creation / bare ${ratio(s.bareCreate.p99 / s.bareRoute.p99)}; ours / bare task Worker: fresh get ${ratio(s.oursFresh.p99 / s.bareFresh.p99)}, creation ${ratio(s.oursCreate.p99 / s.bareCreate.p99)}, bare route ${ratio(s.oursBare.p99 / s.bareRoute.p99)}`,
  );
}
