/**
 * Figures for issue 16 (docs/fan-out.md), on local `wrangler dev`:
 * - wall time of `batch_process` with 200 items of 1 s, fanned out (`parallel: true`), against the
 *   same job run sequentially; the sequential 200 are estimated from a 20-item run × 10, not run
 *   (they take at least 200 s by construction);
 * - the runtime's CPU per item (workerd's user + system time from /proc over the run, ÷ items):
 *   1-s items, and 0-s items where the figure is all overhead, fanned out and sequential;
 * - cancel → the consumer's batch of running items has ended (their signals aborted), read from the
 *   consumer's `fan_out.batch` log line: the heartbeat asks each task once a second.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { DevServer } from "../test/e2e/support/wrangler-dev.ts";
import { createTask, mcp, median, serverLine, startBenchServer, taskResult } from "./support.ts";

const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 1/100 s (getconf CLK_TCK)

/** user + system CPU (ms) of every workerd process under `rootPid`: the runtime, not wrangler's proxy or this client. */
function runtimeCpuMs(rootPid: number): number {
  const procs = new Map<number, { ppid: number; comm: string; cpu: number }>();
  for (const name of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      procs.set(Number(name), {
        ppid: Number(fields[1]),
        comm,
        cpu: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      });
    } catch {
      // the process ended while we read
    }
  }
  const under = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = procs.get(p)?.ppid ?? 0, hops++) if (p === rootPid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, proc] of procs) if (proc.comm.startsWith("workerd") && under(pid)) total += proc.cpu;
  return total;
}

interface Run {
  wallMs: number;
  cpuMs: number;
}

/** Creates one batch_process task and waits for its result; wall from creation to result. */
async function run(server: DevServer, args: Record<string, unknown>): Promise<Run> {
  const pid = server.pid();
  if (pid === undefined) throw new Error("the server is not running");
  const cpuBefore = runtimeCpuMs(pid);
  const started = performance.now();
  const taskId = await createTask(server.url, "batch_process", args);
  const result = await taskResult(server.url, taskId);
  const wallMs = performance.now() - started;
  if (!JSON.stringify(result).includes(`Processed ${String(args["items"])} items.`))
    throw new Error(`unexpected result: ${JSON.stringify(result)}`);
  return { wallMs, cpuMs: runtimeCpuMs(pid) - cpuBefore };
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** 100 items of 30 s fanned out; once all run, cancel: how long until their batch has ended. */
async function cancelLatency(server: DevServer): Promise<number> {
  const taskId = await createTask(server.url, "batch_process", { items: 100, secondsPerItem: 30, parallel: true });
  await until("100 running items", async () =>
    /100 running/.test(
      String(
        ((await (await fetch(`${server.url}/tasks/${taskId}`)).json()) as { statusMessage?: string }).statusMessage,
      ),
    ),
  );
  const from = server.logs().length;
  const cancelled = performance.now();
  await mcp(server.url, "tasks/cancel", { taskId });
  await until("the batch's end", () => server.logs().slice(from).includes('"fan_out.batch"'));
  return performance.now() - cancelled;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const perItem = (r: Run, items: number) => `${(r.cpuMs / items).toFixed(1)} ms`;

export default async function fanout(report: (line: string) => void): Promise<void> {
  const server = await startBenchServer();
  try {
    report(serverLine(server));
    await run(server, { items: 5, secondsPerItem: 0, parallel: true }); // warm-up: the step consumer's isolate and tables

    const parallel: Run[] = [];
    for (let round = 0; round < 3; round++)
      parallel.push(await run(server, { items: 200, secondsPerItem: 1, parallel: true }));
    const sequential20 = await run(server, { items: 20, secondsPerItem: 1 });
    const estimate = sequential20.wallMs * 10;
    const wall = median(parallel.map((r) => r.wallMs));
    report(`200 items × 1 s, parallel: ${parallel.map((r) => s(r.wallMs)).join(", ")} (median ${s(wall)})`);
    report(
      `20 items × 1 s, sequential: ${s(sequential20.wallMs)} → 200 items estimated at ${s(estimate)} (× 10; not run, and at least 200 s by construction)`,
    );
    report(
      `parallel ÷ sequential: 1/${(estimate / wall).toFixed(0)} of the estimate, 1/${(200_000 / wall).toFixed(0)} of the 200 s floor (goal ≤ 1/20)`,
    );
    report(
      `runtime CPU per 1-s item: parallel ${parallel.map((r) => perItem(r, 200)).join(", ")}; sequential ${perItem(sequential20, 20)}`,
    );

    const parallel0 = await run(server, { items: 200, secondsPerItem: 0, parallel: true });
    const sequential0 = await run(server, { items: 200, secondsPerItem: 0 });
    const cancels: number[] = [];
    for (let round = 0; round < 3; round++) cancels.push(await cancelLatency(server));
    report(
      `cancel → the running batch of 100 items ended: ${cancels.map((ms) => `${ms.toFixed(0)} ms`).join(", ")} (heartbeat every 1000 ms)`,
    );
    report(
      `200 items × 0 s (all overhead): parallel ${s(parallel0.wallMs)}, ${perItem(parallel0, 200)} CPU per item; sequential ${s(sequential0.wallMs)}, ${perItem(sequential0, 200)} per item`,
    );
  } finally {
    await server.stop();
  }
}
