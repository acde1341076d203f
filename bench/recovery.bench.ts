/**
 * Figures for issue 4, on local `wrangler dev`:
 * - crash recovery: SIGKILL the runtime mid-countdown, restart it on the same state, and time
 *   kill → first new progress (restart + the stale lease running out + the alarm's re-run),
 *   with a short lease (3 s) and the default (30 s);
 * - storage: the TaskObject's SQLite file for a finished short task, and for one with ~1,000
 *   events, read after a clean stop (checkpointed), with per-table sizes from `dbstat`.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startDevServer } from "../test/e2e/support/wrangler-dev.ts";
import { createTask, median, taskResult } from "./support.ts";

interface TaskDoc {
  status: string;
  progress?: { progress: number };
}

async function taskDoc(url: string, taskId: string): Promise<TaskDoc> {
  const response = await fetch(`${url}/tasks/${taskId}`);
  if (!response.ok) throw new Error(`GET /tasks/${taskId}: HTTP ${response.status}`);
  return (await response.json()) as TaskDoc;
}

/** Poll every 20 ms until `check` passes; the polling interval bounds the timing error. */
async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch {
      // the server is restarting
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function crashRecovery(report: (line: string) => void, leaseMs: number, rounds: number): Promise<void> {
  const server = await startDevServer({
    vars: {
      LEASE_MS: String(leaseMs),
      MAX_ACTIVE_TASKS_PER_PRINCIPAL: "1000",
      RATE_LIMIT_PER_MINUTE: "1000000",
      RATE_LIMIT_BURST: "1000000",
    },
  });
  try {
    const restarts: number[] = [];
    const recoveries: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const taskId = await createTask(server.url, "countdown", { seconds: 600 });
      const before = await until("progress 3", 60_000, async () => {
        const p = (await taskDoc(server.url, taskId)).progress?.progress ?? 0;
        return p >= 3 ? p : undefined;
      });
      const killedAt = performance.now();
      await server.restart();
      restarts.push(performance.now() - killedAt);
      await until("new progress after the restart", 5 * leaseMs + 60_000, async () => {
        const p = (await taskDoc(server.url, taskId)).progress?.progress ?? 0;
        return p > before ? p : undefined;
      });
      recoveries.push(performance.now() - killedAt);
      await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/cancel", params: { taskId } }),
      });
    }
    const s = (v: number) => `${(v / 1000).toFixed(1)} s`;
    report(`LEASE_MS=${leaseMs}: kill → server up again ${restarts.map(s).join(", ")} (median ${s(median(restarts))})`);
    report(
      `LEASE_MS=${leaseMs}: kill → first new progress ${recoveries.map(s).join(", ")} (median ${s(median(recoveries))}; lease-driven part ≈ ${s(median(recoveries) - median(restarts))})`,
    );
  } finally {
    await server.stop();
  }
}

interface FileFigures {
  bytes: number;
  events: number;
  steps: number;
  tables: Record<string, number>;
}

/** Find the TaskObject file holding `taskId` and measure it (the server must be stopped). */
function measureTaskFile(stateDir: string, taskId: string): FileFigures {
  const dir = join(stateDir, "v3/do/mcp-task-worker-TaskObject");
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".sqlite"))) {
    const path = join(dir, name);
    const db = new DatabaseSync(path);
    try {
      const row = db.prepare("SELECT record FROM task WHERE id = 1").get() as { record?: string } | undefined;
      if (!row?.record || !row.record.includes(taskId)) continue;
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      const tables: Record<string, number> = {};
      for (const t of db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name").all() as {
        name: string;
        bytes: number;
      }[])
        tables[t.name] = t.bytes;
      const events = (db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n;
      const steps = (db.prepare("SELECT COUNT(*) AS n FROM steps").get() as { n: number }).n;
      return { bytes: statSync(path).size, events, steps, tables };
    } catch {
      // not a task's file (or an expired, emptied one)
    } finally {
      db.close();
    }
  }
  throw new Error(`no TaskObject file holds task ${taskId}`);
}

async function storage(report: (line: string) => void): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), "mcp-task-worker-bench-"));
  try {
    const server = await startDevServer({ stateDir, vars: { MAX_ACTIVE_TASKS_PER_PRINCIPAL: "1000" } });
    let small = "";
    let large = "";
    try {
      small = await createTask(server.url, "countdown", { seconds: 1 });
      await taskResult(server.url, small);
      // 499 items: a step and a progress event each, plus status and result events ≈ 1,000 events.
      large = await createTask(server.url, "batch_process", { items: 499, secondsPerItem: 0 });
      await taskResult(server.url, large);
    } finally {
      await server.stop();
    }
    const a = measureTaskFile(stateDir, small);
    const b = measureTaskFile(stateDir, large);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    report(
      `short task (countdown 1 s, ${a.events} events): ${kb(a.bytes)} on disk (SQLite pages, schema and runtime tables included)`,
    );
    report(`task with ${b.events} events and ${b.steps} steps: ${kb(b.bytes)} on disk`);
    report(
      `  per event, marginal: ${((b.bytes - a.bytes) / (b.events - a.events)).toFixed(0)} B (file growth ÷ added events; includes the steps rows)`,
    );
    report(
      `  events table ${kb(b.tables["events"] ?? 0)} = ${((b.tables["events"] ?? 0) / b.events).toFixed(0)} B/event; steps table ${kb(b.tables["steps"] ?? 0)} = ${((b.tables["steps"] ?? 0) / Math.max(1, b.steps)).toFixed(0)} B/step`,
    );
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

export default async function recovery(report: (line: string) => void): Promise<void> {
  await crashRecovery(report, 3000, 3);
  await crashRecovery(report, 30_000, 1);
  await storage(report);
}
