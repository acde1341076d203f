/**
 * The callbacks section's Durable Object requests (issue 50, "Measure"): a 60 s `external_job` by
 * callback against polling every 30 s and every 6 s (the default), each alone on the counting build
 * (bench/scale/worker/), from its creation to its end. Nothing reads the task while it runs (the
 * bench waits the job's minute out instead), so the counts are the task's own: calls on stubs
 * (counted at the caller) and alarms, by class and method.
 */
import { writeVariant } from "./ab/variants.ts";
import { createTask, serverLine, startBenchServer } from "./support.ts";
import type { CounterSnapshot } from "./scale/worker/counters.ts";

const JOB_SECONDS = 60;
/** After the job's minute: the last run, its commit and what follows it (the index's update) land. */
const SETTLE_MS = 8000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function counters(url: string, reset = false): Promise<CounterSnapshot> {
  return (await (await fetch(`${url}/__scale`, { method: reset ? "POST" : "GET" })).json()) as CounterSnapshot;
}

const sum = (tally: Record<string, number>): number => Object.values(tally).reduce((a, b) => a + b, 0);
const listed = (tally: Record<string, number>): string =>
  Object.entries(tally)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${key} ${n}`)
    .join(", ");

interface Mode {
  name: string;
  args: Record<string, unknown>;
  /** The outside service's POST when its job is done (callback mode). */
  callback?: boolean;
}

const MODES: Mode[] = [
  { name: "by callback", args: { durationSeconds: JOB_SECONDS, notify: "callback" }, callback: true },
  { name: "polling every 30 s", args: { durationSeconds: JOB_SECONDS, pollSeconds: 30 } },
  { name: "polling every 6 s (default)", args: { durationSeconds: JOB_SECONDS } },
];

/** One task of `mode`, counted from before its creation to after its end; throws if it did not complete. */
async function measure(url: string, mode: Mode): Promise<{ counted: CounterSnapshot; objectId: string }> {
  await counters(url, true);
  const taskId = await createTask(url, "external_job", mode.args);
  await sleep(JOB_SECONDS * 1000);
  if (mode.callback) {
    const response = await fetch(`${url}/tasks/${taskId}/callbacks/finished`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ outputUrl: "https://out.example/done" }),
    });
    if (response.status !== 202) throw new Error(`${mode.name}: the callback's POST answered ${response.status}`);
  }
  await sleep(SETTLE_MS);
  const counted = await counters(url);
  const { status } = (await (await fetch(`${url}/tasks/${taskId}`)).json()) as { status: string };
  if (status !== "completed") throw new Error(`${mode.name}: the task is ${status} after its minute`);
  const { id } = (await (await fetch(`${url}/__scale/id?principal=anonymous&taskId=${taskId}`)).json()) as {
    id: string;
  };
  return { counted, objectId: `TaskObject:${id}` };
}

export async function durableObjectRequests(report: (line: string) => void): Promise<void> {
  const server = await startBenchServer({
    config: writeVariant("scale-counters"),
    vars: { PUBLIC_URL: "http://127.0.0.1:8787" },
  });
  try {
    report(`${serverLine(server)}; the counting build, one 60 s external_job at a time`);
    // Warm-up: the principal's id pool fills and the code paths compile.
    await createTask(server.url, "external_job", { durationSeconds: 1, pollSeconds: 1 });
    await sleep(SETTLE_MS);
    const own: number[] = [];
    for (const mode of MODES) {
      const { counted: c, objectId } = await measure(server.url, mode);
      const calls = c.doRequestsByObject[objectId] ?? 0;
      const alarms = c.alarmsByObject[objectId] ?? 0;
      own.push(calls + alarms);
      report(
        `60 s external_job ${mode.name}: its task's object ${calls + alarms} Durable Object requests (${calls} calls + ${alarms} alarms); ` +
          `the whole Worker meanwhile ${sum(c.doRequests) + sum(c.alarms)} (calls: ${listed(c.doRequests)}; alarms: ${listed(c.alarms)})`,
      );
    }
    const [byCallback = 0, ...polled] = own;
    report(
      `its task's object, by callback / polling every 30 s, every 6 s: ${polled.map((n) => `${byCallback} / ${n} = ${(byCallback / n).toFixed(2)}×`).join("; ")}`,
    );
  } finally {
    await server.stop();
  }
}
