/**
 * Webhook latency (issue 6): time from a task's completion (its `lastUpdatedAt`) to the
 * arrival of its signed `task.completed` webhook at a loopback receiver, p50/p99, with 50
 * tasks finishing together. Local queues wait for `max_batch_timeout` (1 s in wrangler.toml)
 * before delivering a batch, so that wait is part of the figure.
 */
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver } from "../test/e2e/support/webhook-receiver.ts";
import { getOk, mcp, ms, startBenchServer, summarize, timed } from "./support.ts";

const CONCURRENT = 50;
const SECONDS = 2;
const WARMUP = 5;
const SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";

export default async function webhooks(report: (line: string) => void): Promise<void> {
  const receiver = await startWebhookReceiver();
  const server = await startBenchServer({ vars: { WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOW_LOOPBACK: "true" } });
  try {
    const { url } = server;
    const start = async (path: string): Promise<string> => {
      const result = await mcp<{ task: { taskId: string } }>(url, "tools/call", {
        name: "countdown",
        arguments: { seconds: SECONDS },
        task: {},
        _meta: { "mcp-task-worker/webhook": { url: `${receiver.url}${path}` } },
      });
      return result.task.taskId;
    };
    const completedAt = (path: string) =>
      receiver.received.filter(
        (hook) => hook.path === path && hook.status === 200 && hook.body.includes('"task.completed"'),
      );
    const waitFor = async (path: string, count: number) => {
      const deadline = Date.now() + 180_000;
      while (completedAt(path).length < count) {
        if (Date.now() > deadline) throw new Error(`only ${completedAt(path).length} of ${count} webhooks arrived`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    for (let i = 0; i < WARMUP; i++) await start("/warmup");
    await waitFor("/warmup", WARMUP);

    const bare: number[] = [];
    for (let i = 0; i < 50; i++) bare.push((await timed(() => getOk(`${url}/health`))).ms);

    const ids = await Promise.all(Array.from({ length: CONCURRENT }, () => start("/bench")));
    await waitFor("/bench", CONCURRENT);
    const arrivals = new Map<string, number>();
    const verifier = new Webhook(SECRET);
    let verified = 0;
    for (const hook of completedAt("/bench")) {
      const body = verifier.verify(hook.body, hook.headers) as { data: { taskId: string } };
      verified += 1;
      if (!arrivals.has(body.data.taskId)) arrivals.set(body.data.taskId, hook.at);
    }
    const latencies: number[] = [];
    for (const taskId of ids) {
      const doc = (await (await fetch(`${url}/tasks/${taskId}`)).json()) as { status: string; lastUpdatedAt: string };
      const arrived = arrivals.get(taskId);
      if (doc.status !== "completed" || arrived === undefined)
        throw new Error(`task ${taskId}: ${doc.status}, webhook ${arrived === undefined ? "missing" : "arrived"}`);
      latencies.push(arrived - Date.parse(doc.lastUpdatedAt));
    }
    const s = summarize(latencies);
    const bareP50 = summarize(bare).p50;
    report(
      `completion → webhook arrival, ${CONCURRENT} concurrent ${SECONDS} s countdowns: p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (n=${s.n})`,
    );
    report(
      `signatures verified with standardwebhooks: ${verified}/${completedAt("/bench").length}; duplicates: ${completedAt("/bench").length - arrivals.size}`,
    );
    report(
      `bare /health p50 in the same run: ${ms(bareP50)}; local queue max_batch_timeout = 1 s is included in the figure`,
    );
  } finally {
    await server.stop();
    await receiver.close();
  }
}
