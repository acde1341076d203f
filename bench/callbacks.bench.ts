/**
 * Waiting for an outside system (issue 50), on local `wrangler dev`, in one run:
 * - waking: a callback's POST (`POST /tasks/{id}/callbacks/{name}`, the owner's path: the same
 *   delivery as the URL's, without reading its token out of storage) to the next run's start
 *   ("Running."), against an answered question's (`POST /tasks/{id}/input`) to its next run's start,
 *   both from the request's send time to the run's commit time (`/events?timing=1`), alternated;
 * - what a 60 s `external_job` costs by callback and by polling (`pollSeconds` 30, which yields
 *   between polls, and the default, which polls every 6 s holding its run): runs, and the time its
 *   runs held the object, from the status commits;
 * - the same three jobs' Durable Object requests, each alone on the counting build (callbacks-requests.ts).
 */
import { durableObjectRequests } from "./callbacks-requests.ts";
import { createTask, ms, ratio, serverLine, startBenchServer, summarize, statusTimes } from "./support.ts";

const TASKS = 20;

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function doc(url: string, taskId: string): Promise<{ status: string; statusMessage?: string }> {
  return (await (await fetch(`${url}/tasks/${taskId}`)).json()) as { status: string; statusMessage?: string };
}

/** The first run start committed at or after `sentAt`, less `sentAt`. */
function wake(times: [string, number][], sentAt: number): number | undefined {
  const next = times.find(([message, at]) => at >= sentAt && message === "Running.");
  return next ? next[1] - sentAt : undefined;
}

/** Runs (each starts with "Running.") and the time they held the object: each run's start to the next commit. */
function runsAndHeld(times: [string, number][]): { runs: number; heldMs: number } {
  let runs = 0;
  let heldMs = 0;
  times.forEach(([message, at], i) => {
    if (message !== "Running.") return;
    runs += 1;
    heldMs += (times[i + 1]?.[1] ?? at) - at;
  });
  return { runs, heldMs };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

export default async function (report: (line: string) => void): Promise<void> {
  const server = await startBenchServer({ vars: { PUBLIC_URL: "http://127.0.0.1:8787" } });
  try {
    report(serverLine(server));
    const questions: string[] = [];
    const callbacks: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      questions.push(await createTask(server.url, "deploy", { service: `svc-${i}`, version: "v1" }));
      callbacks.push(await createTask(server.url, "external_job", { durationSeconds: 60, notify: "callback" }));
    }
    const polled = await createTask(server.url, "external_job", { durationSeconds: 60, pollSeconds: 30 });
    const polledFast = await createTask(server.url, "external_job", { durationSeconds: 60 });
    for (const taskId of questions)
      await waitFor(`${taskId} to ask`, async () =>
        (await doc(server.url, taskId)).status === "input_required" ? true : undefined,
      );
    for (const taskId of callbacks)
      await waitFor(`${taskId} to wait`, async () =>
        (await doc(server.url, taskId)).statusMessage?.includes("waiting for callback") ? true : undefined,
      );

    const sent = new Map<string, number>();
    for (let i = 0; i < TASKS; i++) {
      // Alternated, each first in turn, so neither always follows the other.
      const pair: [string, () => Promise<Response>][] = [
        [
          questions[i] ?? "",
          () => post(`${server.url}/tasks/${questions[i]}/input`, { confirm: { action: "decline" } }),
        ],
        [
          callbacks[i] ?? "",
          () =>
            post(`${server.url}/tasks/${callbacks[i]}/callbacks/finished`, { outputUrl: `https://out.example/${i}` }),
        ],
      ];
      for (const [taskId, send] of i % 2 === 0 ? pair : pair.reverse()) {
        sent.set(taskId, Date.now());
        const response = await send();
        if (!response.ok) throw new Error(`${taskId}: HTTP ${response.status}`);
        await response.arrayBuffer();
      }
    }

    const wakes = async (ids: string[]) => {
      const values: number[] = [];
      for (const taskId of ids) {
        await waitFor(`${taskId} to finish`, async () =>
          (await doc(server.url, taskId)).status === "completed" ? true : undefined,
        );
        const took = wake(await statusTimes(server.url, taskId), sent.get(taskId) ?? 0);
        if (took !== undefined) values.push(took);
      }
      return summarize(values);
    };
    const answered = await wakes(questions);
    const called = await wakes(callbacks);
    report(`answered question → next run starts: p50 ${ms(answered.p50)}, p99 ${ms(answered.p99)} (n=${answered.n})`);
    report(
      `callback POST → next run starts: p50 ${ms(called.p50)} (${ratio(called.p50 / answered.p50)} the question's), p99 ${ms(called.p99)} (n=${called.n})`,
    );

    const cost = async (taskId: string) => {
      await waitFor(`${taskId} to finish`, async () =>
        (await doc(server.url, taskId)).status === "completed" ? true : undefined,
      );
      return runsAndHeld(await statusTimes(server.url, taskId));
    };
    const byCallback = runsAndHeld(await statusTimes(server.url, callbacks[0] ?? ""));
    const by30 = await cost(polled);
    const by6 = await cost(polledFast);
    report(
      `60 s external_job: by callback ${byCallback.runs} runs holding the object ${ms(byCallback.heldMs)} (+1 POST); ` +
        `polling every 30 s ${by30.runs} runs, ${ms(by30.heldMs)}; polling every 6 s (default) ${by6.runs} run, ${ms(by6.heldMs)}`,
    );
  } finally {
    await server.stop();
  }
  await durableObjectRequests(report);
}
