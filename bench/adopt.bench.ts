/**
 * Issue 43's measures, in one run: the createMcpHandler Worker before adoption (the peer,
 * bench/peers/workers/create-mcp-handler) and after (examples/create-mcp-handler, installed from
 * the packed tarball as a user installs it), and the adopter's task path against the template's.
 * Each its own `wrangler dev` with the bench's settings (state on tmpfs, collector off, the raised
 * limits); every series sampled interleaved, each round in its own order (bench/order.ts), over `node:http`
 * with one kept-alive socket per server (bench/peers/client.ts). Also the example's diff against its
 * starting point and both bundles. BENCH_ADOPT_ROUNDS (600) and BENCH_ADOPT_CREATION_ROUNDS (300): with
 * 150 and 100 a p99 (the second-slowest sample) moved from 0.43× to 1.34× between runs of the same code.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { sampleRounds } from "./order.ts";
import { ms, ratio, startBenchServer, summarize, type Summary } from "./support.ts";
import { oneSocket, rpc, rpcModern, type RpcTarget } from "./peers/client.ts";
import { PEER_CONFIGS } from "./peers/servers.ts";
import { adopterConfig } from "../test/e2e/support/adopter.ts";
import { bundleSize } from "../test/e2e/support/bundle.ts";
import type { DevServer } from "../test/e2e/support/wrangler-dev.ts";

const ROUNDS = Number(process.env["BENCH_ADOPT_ROUNDS"] ?? 600);
const CREATION_ROUNDS = Number(process.env["BENCH_ADOPT_CREATION_ROUNDS"] ?? 300);
const WARMUP_ROUNDS = 20;
const ROOT = resolve(import.meta.dirname, "..");
const STARTING_POINT = "bench/peers/workers/create-mcp-handler";
const EXAMPLE = "examples/create-mcp-handler";

const ECHO = { name: "echo", arguments: { text: "hello" } };
const COUNTDOWN = { name: "countdown", arguments: { seconds: 1 } };

type Report = (line: string) => void;
type Series = Record<string, number[]>;

export default async function adopt(report: Report): Promise<void> {
  reportDiff(report);
  const exampleConfig = await adopterConfig(EXAMPLE);
  const [example, peer] = [await bundleSize(exampleConfig), await bundleSize(PEER_CONFIGS.createMcpHandler)];
  report(
    `bundle (wrangler deploy --dry-run): the example ${example.gzipKiB.toFixed(1)} KiB gzip (${example.rawKiB.toFixed(0)} KiB raw), its starting point ${peer.gzipKiB.toFixed(1)} KiB gzip (${peer.rawKiB.toFixed(0)} KiB raw) as its own config bundles it, unminified (both minified: npm run bench -- bytes)`,
  );

  const started: DevServer[] = [];
  const start = async (config?: string) => {
    // One after another: three wrangler starts at once on two cores time out now and then.
    const server = await startBenchServer(config === undefined ? {} : { config });
    started.push(server);
    return { url: server.url, agent: oneSocket() };
  };
  try {
    const before = await start(PEER_CONFIGS.createMcpHandler);
    const after = await start(exampleConfig);
    const template = await start();
    report(`servers: before ${before.url}, after ${after.url}, template ${template.url}; load average ${load()}`);
    const finished = { after: await finishedTask(after), template: await finishedTask(template) };

    const plain: [string, () => Promise<number>][] = [
      ["echo before", () => echo(before)],
      ["echo after", () => echo(after)],
      ["echo 2026 before", () => echo(before, true)],
      ["echo 2026 after", () => echo(after, true)],
      ["tasks/get after", () => tasksGet(after, finished.after)],
      ["tasks/get template", () => tasksGet(template, finished.template)],
    ];
    await sample(plain, WARMUP_ROUNDS);
    const latency = await sample(plain, ROUNDS);
    const created = { after: [] as string[], template: [] as string[] };
    const creation: [string, () => Promise<number>][] = [
      ["create after", () => create(after, created.after)],
      ["create template", () => create(template, created.template)],
    ];
    await sample(creation, WARMUP_ROUNDS);
    const creations = await sample(creation, CREATION_ROUNDS);
    await awaitFinished(after, created.after);
    await awaitFinished(template, created.template);

    const s = (name: string): Summary => summarize(latency[name] ?? creations[name] ?? []);
    report(`sampled ${ROUNDS} rounds (creation ${CREATION_ROUNDS}), interleaved; load average ${load()}`);
    for (const name of [...Object.keys(latency), ...Object.keys(creations)])
      report(`  ${name.padEnd(20)} p50 ${ms(s(name).p50)}  p99 ${ms(s(name).p99)}`);
    const row = (label: string, a: string, b: string, goal: string) =>
      report(
        `  ${label.padEnd(48)} p50 ${ratio(s(a).p50 / s(b).p50)}  p99 ${ratio(s(a).p99 / s(b).p99)}   (goal ${goal})`,
      );
    report("ratios:");
    row("echo, after / before adoption (2025)", "echo after", "echo before", "p50 ≤ 1.05×");
    row("echo, after / before adoption (2026-07-28)", "echo 2026 after", "echo 2026 before", "p50 ≤ 1.05×");
    row("task creation (2026-07-28), adopter / template", "create after", "create template", "≤ 1.2×");
    row("tasks/get (2026-07-28), adopter / template", "tasks/get after", "tasks/get template", "≤ 1.2×");
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** `steps` `rounds` times, each round in its own order (bench/order.ts), every time kept by name. */
async function sample(steps: [string, () => Promise<number>][], rounds: number): Promise<Series> {
  const series: Series = Object.fromEntries(steps.map(([name]) => [name, []]));
  await sampleRounds(steps, rounds, series);
  return series;
}

/** A plain `echo` that must answer its text, in the 2025 framing or the 2026-07-28 one. */
async function echo(target: RpcTarget, modern = false): Promise<number> {
  const { ms: took, result } = modern
    ? await rpcModern(target, "tools/call", ECHO, "echo")
    : await rpc(target, "tools/call", ECHO);
  if (!JSON.stringify(result["content"]).includes("hello"))
    throw new Error(`echo on ${target.url} did not answer its text: ${JSON.stringify(result).slice(0, 200)}`);
  return took;
}

/** A 2026-07-28 task of a 1-s countdown (the Tasks extension declared); its id kept to await later. */
async function create(target: RpcTarget, ids: string[]): Promise<number> {
  const made = await rpcModern(target, "tools/call", COUNTDOWN, COUNTDOWN.name);
  if (made.result["resultType"] !== "task")
    throw new Error(`no task from ${target.url}: ${JSON.stringify(made.result).slice(0, 200)}`);
  ids.push(String(made.result["taskId"]));
  return made.ms;
}

async function tasksGet(target: RpcTarget, taskId: string): Promise<number> {
  const { ms: took, result } = await rpcModern(target, "tasks/get", { taskId }, taskId);
  if (result["status"] !== "completed") throw new Error(`task ${taskId} on ${target.url}: ${result["status"]}`);
  return took;
}

/** A countdown task created and followed to its end before the rounds. */
async function finishedTask(target: RpcTarget): Promise<string> {
  const ids: string[] = [];
  await create(target, ids);
  const [taskId] = ids;
  if (taskId === undefined) throw new Error("no task id");
  await awaitFinished(target, ids);
  return taskId;
}

/** Polls `tasks/get` of each task until it is no longer working, so no countdown loads what follows. */
async function awaitFinished(target: RpcTarget, taskIds: string[]): Promise<void> {
  for (const taskId of taskIds.splice(0)) {
    for (;;) {
      const { result } = await rpcModern(target, "tasks/get", { taskId }, taskId);
      if (result["status"] !== "working") break;
      const wait = Number(result["pollIntervalMs"] ?? 500);
      await new Promise((r) => setTimeout(r, Math.min(wait, 500)));
    }
  }
}

/** `git diff --no-index --numstat` of the example against its starting point: TypeScript and config. */
function reportDiff(report: Report): void {
  const numstat = (a: string, b: string) => {
    const out = spawnSync("git", ["diff", "--no-index", "--numstat", a, b], { cwd: ROOT, encoding: "utf8" }).stdout;
    const [added = "?", removed = "?"] = out.trim().split(/\s+/);
    return `+${added} −${removed}`;
  };
  report(
    `diff against the starting point (git diff --no-index --numstat): src/index.ts ${numstat(`${STARTING_POINT}/index.ts`, `${EXAMPLE}/src/index.ts`)}; wrangler config ${numstat(`${STARTING_POINT}/wrangler.toml`, `${EXAMPLE}/wrangler.jsonc`)} (TOML → JSONC, whole file)`,
  );
}
