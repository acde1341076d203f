/**
 * What one task costs the platform, counted: the bench-only build (bench/scale/worker/) counts
 * Durable Object requests, SQL rows read and written, storage and alarm calls, queue operations,
 * Worker invocations and each object class's active time, for a few task shapes run on one
 * `wrangler dev`; the runtime's CPU comes from its process. docs/scale.md turns these into prices.
 *
 * SCALE_TASKS (8 per shape) trades time for precision.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { oneSocket, rpc, socketPool, type RpcTarget } from "./peers/client.ts";
import { serverLine, startBenchServer } from "./support.ts";
import { writeVariant } from "./ab/variants.ts";
import type { CounterSnapshot } from "./scale/worker/counters.ts";
import type { DevServer } from "../test/e2e/support/wrangler-dev.ts";

const TASKS = Number(process.env["SCALE_TASKS"] ?? 8);
/** Creations are spaced, as a steady stream of users would send them; the tasks themselves overlap. */
const SPACING_MS = 300;
/** After the last result: queue deliveries (1 s batches), index updates and id-pool refills land. */
const SETTLE_MS = 3000;
/** How long the person of the human-in-the-loop shape takes to answer. */
const ANSWER_AFTER_MS = 2000;

interface Shape {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  /** A task-augmented call, then tasks/result; or a plain tools/call, answered when the tool ends. */
  taskAugmented: boolean;
  /** Poll tasks/get this often until the task ends, before tasks/result (what SDK 1.x callToolStream does). */
  pollMs?: number;
  vars?: Record<string, string>;
  /** Answers to POST to /tasks/{id}/input once the task waits for them (human in the loop). */
  answer?: Record<string, unknown>;
}

const SHAPES: Shape[] = [
  {
    name: "echo, no task (the Worker alone: one plain tools/call)",
    tool: "echo",
    args: { text: "hello" },
    taskAugmented: false,
  },
  {
    name: "batch_process {items:1, secondsPerItem:0}, plain call (the job ends inside it: goal 1's call)",
    tool: "batch_process",
    args: { items: 1, secondsPerItem: 0 },
    taskAugmented: false,
  },
  {
    name: "countdown 2 s, task-augmented call + tasks/result",
    tool: "countdown",
    args: { seconds: 2 },
    taskAugmented: true,
  },
  { name: "countdown 2 s, plain call answered inline", tool: "countdown", args: { seconds: 2 }, taskAugmented: false },
  {
    name: "countdown 20 s (20 progress events), task-augmented + tasks/result",
    tool: "countdown",
    args: { seconds: 20 },
    taskAugmented: true,
  },
  {
    name: "countdown 20 s, the client polling tasks/get every second, then tasks/result",
    tool: "countdown",
    args: { seconds: 20 },
    taskAugmented: true,
    pollMs: 1000,
  },
  {
    name: "countdown 20 s in 10-s run slices (RUN_SLICE_MS=10000)",
    tool: "countdown",
    args: { seconds: 20 },
    taskAugmented: true,
    vars: { RUN_SLICE_MS: "10000" },
  },
  {
    name: "deploy: a question answered after a wait with nothing running (POST /tasks/{id}/input), then 3 one-second steps",
    tool: "deploy",
    args: { service: "api", version: "1.2.3" },
    taskAugmented: true,
    answer: { confirm: { action: "accept", content: { confirm: true } } },
  },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function counters(url: string, reset = false): Promise<CounterSnapshot> {
  const response = await fetch(`${url}/__scale`, { method: reset ? "POST" : "GET" });
  return (await response.json()) as CounterSnapshot;
}

/** CPU seconds (user + system) of the runtime processes under the wrangler dev that keeps its state in `stateDir`. */
function runtimeCpuMs(stateDir: string): number {
  const pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  const parent = new Map<string, string>();
  const command = new Map<string, string>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parent.set(pid, stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? "");
      command.set(pid, readFileSync(`/proc/${pid}/cmdline`, "utf8"));
    } catch {
      // gone meanwhile
    }
  }
  const root = pids.find((pid) => command.get(pid)?.includes(stateDir) && command.get(pid)?.includes("wrangler"));
  if (!root) return Number.NaN;
  const ticks = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
  let total = 0;
  const visit = (pid: string) => {
    if (command.get(pid)?.includes("workerd")) {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      total += (Number(fields[11]) + Number(fields[12])) / ticks; // utime, stime
    }
    for (const [child, p] of parent) if (p === pid) visit(child);
  };
  visit(root);
  return total * 1000;
}

async function runTask(target: RpcTarget, shape: Shape): Promise<string> {
  const params = { name: shape.tool, arguments: shape.args };
  if (!shape.taskAugmented) {
    await rpc(target, "tools/call", params);
    return "";
  }
  const created = await rpc(target, "tools/call", { ...params, task: {} });
  const taskId = String((created.result["task"] as { taskId: unknown }).taskId);
  if (shape.answer) {
    // The person takes a while; meanwhile the task holds nothing running. One look, then the answer.
    await sleep(ANSWER_AFTER_MS);
    for (;;) {
      const task = (await (await fetch(`${target.url}/tasks/${taskId}`)).json()) as { status?: string };
      if (task.status === "input_required") break;
      await sleep(500);
    }
    const answered = await fetch(`${target.url}/tasks/${taskId}/input`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(shape.answer),
    });
    if (!answered.ok) throw new Error(`answer refused: ${answered.status} ${await answered.text()}`);
  }
  if (shape.pollMs !== undefined) {
    for (;;) {
      await sleep(shape.pollMs);
      const { result } = await rpc(target, "tasks/get", { taskId });
      if (["completed", "failed", "cancelled"].includes(String(result["status"]))) break;
    }
  }
  await rpc(target, "tasks/result", { taskId });
  return taskId;
}

const perTask = (tally: Record<string, number>, n: number): string =>
  Object.entries(tally)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key} ${(value / n).toFixed(2)}`)
    .join(", ") || "none";

const sum = (tally: Record<string, number>): number => Object.values(tally).reduce((a, b) => a + b, 0);

async function measure(server: DevServer, shape: Shape, report: (line: string) => void): Promise<void> {
  const target: RpcTarget = { url: server.url, agent: socketPool() };
  // Warm-up: the principal's id pool fills and every code path is compiled.
  await Promise.all(
    Array.from({ length: 3 }, () =>
      runTask(target, shape.tool === "countdown" ? { ...shape, args: { seconds: 1 }, pollMs: undefined } : shape),
    ),
  );
  await sleep(SETTLE_MS);
  await counters(server.url, true);
  const cpuBefore = runtimeCpuMs(server.stateDir);
  const started = performance.now();
  const runs: Promise<string>[] = [];
  for (let i = 0; i < TASKS; i++) {
    runs.push(runTask(target, shape));
    await sleep(SPACING_MS);
  }
  const taskIds = await Promise.all(runs);
  await sleep(SETTLE_MS);
  const c = await counters(server.url);
  const cpuMs = runtimeCpuMs(server.stateDir) - cpuBefore;
  const wall = (performance.now() - started) / 1000;
  const bytes = taskIds[0]
    ? (
        (await (await fetch(`${server.url}/__scale/bytes?principal=anonymous&taskId=${taskIds[0]}`)).json()) as {
          bytes: number;
        }
      ).bytes
    : Number.NaN;
  const n = TASKS;
  report("");
  report(
    `${shape.name}: ${n} tasks, ${wall.toFixed(1)} s, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; per task:`,
  );
  report(
    `  Worker invocations: ${(c.workerRequests / n).toFixed(2)} HTTP + ${(sum(c.queueBatches) / n).toFixed(2)} queue batches (${perTask(c.queueBatches, n)})`,
  );
  report(
    `  Durable Object requests: ${(sum(c.doRequests) / n).toFixed(2)} calls (${perTask(c.doRequests, n)}) + ${(sum(c.alarms) / n).toFixed(2)} alarms (${perTask(c.alarms, n)}) + ${(sum(c.webSocketMessagesIn) / n).toFixed(2)} WebSocket messages in`,
  );
  report(
    `  SQL rows written: ${(sum(c.rowsWritten) / n).toFixed(1)} (${perTask(c.rowsWritten, n)}); read: ${(sum(c.rowsRead) / n).toFixed(1)} (${perTask(c.rowsRead, n)})`,
  );
  report(`  SQL statements run (sql.exec calls): ${(sum(c.sqlCalls) / n).toFixed(1)} (${perTask(c.sqlCalls, n)})`);
  report(
    `    by statement: ${Object.entries(c.rowsWrittenBy)
      .sort(([, a], [, b]) => b - a)
      .map(([k, v]) => `[${k}] ${(v / n).toFixed(2)}`)
      .join("; ")}`,
  );
  report(`  storage calls: ${perTask(c.storageCalls, n)}`);
  report(
    `  queue operations: writes ${perTask(c.queueWrites, n)}; reads ${perTask(c.queueReads, n)}; acks ${perTask(c.queueAcks, n)}; retries ${perTask(c.queueRetries, n)}`,
  );
  report(`  objects active (ms, handlers running): ${perTask(c.activeMs, n)}; objects used: ${perTask(c.objects, n)}`);
  report(
    `  runtime CPU (workerd processes, all of the above plus the local platform): ${(cpuMs / n).toFixed(1)} ms; the task's database: ${(bytes / 1024).toFixed(1)} KiB`,
  );
}

export default async function scale(report: (line: string) => void): Promise<void> {
  const config = writeVariant("scale-counters");
  const byVars = new Map<string, Shape[]>();
  for (const shape of SHAPES) {
    const key = JSON.stringify(shape.vars ?? {});
    byVars.set(key, [...(byVars.get(key) ?? []), shape]);
  }
  for (const [vars, shapes] of byVars) {
    const server = await startBenchServer({ config, vars: JSON.parse(vars) as Record<string, string> });
    try {
      report(
        `${serverLine(server)}; the counting build, ${TASKS} tasks per shape, created ${SPACING_MS} ms apart${vars === "{}" ? "" : `; vars ${vars}`}`,
      );
      // Settle what startup left running (the local queue's first batch, the rate limiter's lease).
      await rpc({ url: server.url, agent: oneSocket() }, "ping");
      for (const shape of shapes) await measure(server, shape, report);
    } finally {
      await server.stop();
    }
  }
}
