/**
 * Human in the loop (issue 13), on local `wrangler dev`, as ratios to the bare route in the same run:
 * - answering: `POST /tasks/{id}/input` on a waiting deploy task (the answer checked against its
 *   form, stored, the task made due), against `GET /health`;
 * - resuming: from the answer's commit ("Answer received; resuming.") to the next run's start
 *   ("Running."), read from the task's own commit times (`/events?timing=1`): the alarm's latency.
 */
import {
  createTask,
  ms,
  ratio,
  sequentialLatencies,
  serverLine,
  startBenchServer,
  statusTimes,
  summarize,
  timed,
} from "./support.ts";

const TASKS = 30;

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function status(url: string, taskId: string): Promise<string> {
  const response = await fetch(`${url}/tasks/${taskId}`);
  return ((await response.json()) as { status: string }).status;
}

export default async function (report: (line: string) => void): Promise<void> {
  const server = await startBenchServer();
  try {
    report(serverLine(server));
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i++)
      ids.push(await createTask(server.url, "deploy", { service: `svc-${i}`, version: "v1" }));
    for (const taskId of ids)
      await waitFor(`task ${taskId} to ask`, async () =>
        (await status(server.url, taskId)) === "input_required" ? true : undefined,
      );

    const bare = summarize(
      await sequentialLatencies(TASKS * 2, () => fetch(`${server.url}/health`).then((r) => r.arrayBuffer())),
    );
    const answers: number[] = [];
    for (const taskId of ids) {
      const { ms: took, value } = await timed(() =>
        fetch(`${server.url}/tasks/${taskId}/input`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ confirm: { action: "decline" } }),
        }),
      );
      if (value.status !== 200) throw new Error(`answer: HTTP ${value.status}`);
      await value.arrayBuffer();
      answers.push(took);
    }
    const answered = summarize(answers);
    report(`bare GET /health: p50 ${ms(bare.p50)}, p99 ${ms(bare.p99)} (n=${bare.n})`);
    report(
      `POST /tasks/{id}/input: p50 ${ms(answered.p50)} (${ratio(answered.p50 / bare.p50)} bare), p99 ${ms(answered.p99)} (${ratio(answered.p99 / bare.p50)} bare) (n=${answered.n})`,
    );

    const resumes: number[] = [];
    for (const taskId of ids) {
      await waitFor(`task ${taskId} to finish`, async () =>
        (await status(server.url, taskId)) === "completed" ? true : undefined,
      );
      const times = await statusTimes(server.url, taskId);
      const answer = times.findIndex(([message]) => message === "Answer received; resuming.");
      const next = times.slice(answer + 1).find(([message]) => message === "Running.");
      const answeredAt = times[answer]?.[1];
      if (answer >= 0 && answeredAt !== undefined && next) resumes.push(next[1] - answeredAt);
    }
    const resumed = summarize(resumes);
    report(
      `answer → next run starts (commit times): p50 ${ms(resumed.p50)} (${ratio(resumed.p50 / bare.p50)} bare), p99 ${ms(resumed.p99)} (n=${resumed.n})`,
    );
  } finally {
    await server.stop();
  }
}
