/**
 * The 2026-07-28 adapter's cost on its two hottest paths, on one local `wrangler dev`, each as a
 * ratio to the bare route measured in the same run (goal ≤ 2× for both, as 2025 creation):
 * - task creation: `tools/call` of countdown from a client that declared the Tasks extension;
 * - `tasks/get` of a running task;
 * and the same two requests in 2025-11-25 form beside them, so the era's own cost shows.
 * All five are sampled in turn with node:http on one kept-alive connection, in a shuffled order per round.
 */
import { loadavg } from "node:os";
import {
  getOk,
  httpGet,
  httpModernRpc,
  httpRpc,
  ms,
  ratio,
  serverLine,
  startBenchServer,
  summarize,
  taskResult,
} from "./support.ts";

const SAMPLES = 150;
const WARMUP = 20;

export default async function mcp2026(report: (line: string) => void): Promise<void> {
  const server = await startBenchServer();
  try {
    const { url } = server;
    report(
      `${serverLine(server)}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    const created: string[] = [];
    // One long task per era to poll: tasks/get of a running task reads its object, as a polling client does.
    const legacyTask = String(
      (
        (await httpRpc(url, "tools/call", { name: "countdown", arguments: { seconds: 3600 }, task: {} })).result[
          "task"
        ] as { taskId: string }
      ).taskId,
    );
    const modernTask = String(
      (await httpModernRpc(url, "tools/call", { name: "countdown", arguments: { seconds: 3600 } }, "countdown")).result[
        "taskId"
      ],
    );

    const samples = {
      bare: [] as number[],
      create2025: [] as number[],
      create2026: [] as number[],
      get2025: [] as number[],
      get2026: [] as number[],
    };
    const steps = [
      async () => samples.bare.push(await httpGet(`${url}/health`)),
      async () => {
        const made = await httpRpc(url, "tools/call", { name: "countdown", arguments: { seconds: 1 }, task: {} });
        samples.create2025.push(made.ms);
        created.push(String((made.result["task"] as { taskId: string }).taskId));
      },
      async () => {
        const made = await httpModernRpc(
          url,
          "tools/call",
          { name: "countdown", arguments: { seconds: 1 } },
          "countdown",
        );
        if (made.result["resultType"] !== "task")
          throw new Error(`expected a task, got ${JSON.stringify(made.result).slice(0, 200)}`);
        samples.create2026.push(made.ms);
        created.push(String(made.result["taskId"]));
      },
      async () => samples.get2025.push((await httpRpc(url, "tasks/get", { taskId: legacyTask })).ms),
      async () => samples.get2026.push((await httpModernRpc(url, "tasks/get", { taskId: modernTask }, modernTask)).ms),
    ];
    for (let i = 0; i < WARMUP; i++) for (const step of steps) await step();
    for (const list of Object.values(samples)) list.length = 0;
    // A fresh order each round: a request that follows a creation meets that creation's background
    // work (its job starting), so no step may always come after the same one.
    let seed = 20261123;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < SAMPLES; i++) {
      const order = steps.map((step) => ({ step, key: random() })).sort((a, b) => a.key - b.key);
      for (const { step } of order) await step();
    }

    const b = summarize(samples.bare);
    const c25 = summarize(samples.create2025);
    const c26 = summarize(samples.create2026);
    const g25 = summarize(samples.get2025);
    const g26 = summarize(samples.get2026);
    report(`node:http, n=${b.n} each, in turn, order shuffled per round:`);
    report(`  bare GET /health        p50 ${ms(b.p50)}  p99 ${ms(b.p99)}`);
    report(`  2025 task creation      p50 ${ms(c25.p50)}  p99 ${ms(c25.p99)}  (${ratio(c25.p50 / b.p50)} bare)`);
    report(
      `  2026 task creation      p50 ${ms(c26.p50)}  p99 ${ms(c26.p99)}  (${ratio(c26.p50 / b.p50)} bare, goal ≤ 2×; ${ratio(c26.p50 / c25.p50)} the 2025 creation)`,
    );
    report(`  2025 tasks/get          p50 ${ms(g25.p50)}  p99 ${ms(g25.p99)}  (${ratio(g25.p50 / b.p50)} bare)`);
    report(
      `  2026 tasks/get          p50 ${ms(g26.p50)}  p99 ${ms(g26.p99)}  (${ratio(g26.p50 / b.p50)} bare, goal ≤ 2×; ${ratio(g26.p50 / g25.p50)} the 2025 tasks/get)`,
    );

    await Promise.all([
      httpRpc(url, "tasks/cancel", { taskId: legacyTask }),
      httpRpc(url, "tasks/cancel", { taskId: modernTask }),
    ]);
    for (let i = 0; i < created.length; i += 50)
      await Promise.all(created.slice(i, i + 50).map((id) => taskResult(url, id)));
    await getOk(`${url}/health`);
  } finally {
    await server.stop();
  }
}
