/**
 * `node scripts/workflow-costs.ts [--url http://127.0.0.1:8787] [--port 8787] [--tasks 5] [--pages 4]`:
 * runs publish_report tasks one after another against a running `npm run dev` (anonymous) and
 * prints what each cost (the instance's steps as wrangler's local Workflows API lists them, the
 * task's runs and events) and how quickly the task followed its instance (call → question,
 * answer → result, the instance's end → the task's end), beside a bare /health round trip.
 */
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:8787" },
    port: { type: "string", default: "8787" },
    tasks: { type: "string", default: "5" },
    pages: { type: "string", default: "4" },
  },
});
const url = values.url;
const pages = Number(values.pages);
const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-11-25",
};

interface TaskDoc {
  status: string;
  lastUpdatedAt: string;
}

async function doc(taskId: string): Promise<TaskDoc> {
  return (await (await fetch(`${url}/tasks/${taskId}`)).json()) as TaskDoc;
}

/** Polls every 20 ms (a measurement, not a test: the figure is the first read that sees it). */
async function until(taskId: string, status: string): Promise<TaskDoc> {
  for (;;) {
    const current = await doc(taskId);
    if (current.status === status) return current;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function health(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await (await fetch(`${url}/health`)).text();
    times.push(performance.now() - t);
  }
  return median(times);
}

const rows: Record<string, number>[] = [];
for (let i = 0; i < Number(values.tasks); i++) {
  const t0 = performance.now();
  const reply = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "publish_report", arguments: { pages }, task: { ttl: 600_000 } },
    }),
  });
  const taskId = String(((await reply.json()) as { result: { task: { taskId: string } } }).result.task.taskId);
  await until(taskId, "input_required");
  const asked = performance.now() - t0;
  const t1 = performance.now();
  await fetch(`${url}/tasks/${taskId}/input`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ publish: { action: "accept", content: { publish: true } } }),
  });
  const done = await until(taskId, "completed");
  const answered = performance.now() - t1;
  const described = execFileSync(
    process.execPath,
    [
      "node_modules/wrangler/bin/wrangler.js",
      "workflows",
      "instances",
      "describe",
      "mcp-task-publish-report",
      taskId,
      "--local",
      "--port",
      String(values.port),
      "--json",
    ],
    { env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  ).toString();
  const instance = JSON.parse(described.slice(described.indexOf("{"))) as { end: string; steps: unknown[] };
  const events = (await (await fetch(`${url}/tasks/${taskId}/events`)).text())
    .split("\n")
    .filter((line) => line.startsWith("event: "));
  rows.push({
    callToQuestionMs: Math.round(asked),
    answerToResultMs: Math.round(answered),
    instanceEndToTaskEndMs: Date.parse(done.lastUpdatedAt) - Date.parse(instance.end),
    workflowSteps: instance.steps.length,
    statusEvents: events.filter((e) => e === "event: status").length,
    taskEvents: events.length,
  });
}
console.log(`publish_report, ${pages} pages, ${rows.length} tasks; /health p50 ${(await health()).toFixed(1)} ms`);
for (const key of Object.keys(rows[0] ?? {}))
  console.log(
    `${key.padEnd(24)} median ${median(rows.map((r) => r[key] ?? NaN))}  (${rows.map((r) => r[key]).join(", ")})`,
  );
