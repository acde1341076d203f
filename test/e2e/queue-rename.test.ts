// A second deployment in the same account must rename its queues (names are per account). Here every
// queue of a copy of wrangler.toml gets another name, and on `wrangler dev` with that copy a fan-out
// (batch_process with parallel: true) and a webhook (its first attempt refused, so it is retried
// through the queue) still run to their end: messages find their consumers by their tag, not by
// the name of the queue they came from (src/queues/router.ts, docs/deploying.md).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { unstable_readConfig } from "wrangler";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { eventLog, startTask } from "./support/tasks";
import { batchLines, ofType, sumOfSquares, taskResult, total } from "./support/fan-out";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver";
import { until } from "../until";

const ROOT = resolve(import.meta.dirname, "../..");
/** Beside wrangler.toml, so its relative paths (main, [alias], [build]) mean the same; git-ignored. */
const COPY = `wrangler.queue-rename-${process.pid}.e2e.toml`;
const SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";

interface QueueConfig {
  queues: { producers?: { queue: string }[]; consumers?: { queue: string; dead_letter_queue?: string }[] };
}
const queueNames = (config: QueueConfig): string[] => [
  ...new Set([
    ...(config.queues.producers ?? []).map((p) => p.queue),
    ...(config.queues.consumers ?? []).flatMap((c) => [c.queue, ...(c.dead_letter_queue ? [c.dead_letter_queue] : [])]),
  ]),
];

/** Every queue renamed: "mcp-task-steps" → "second-deploy-steps-work", its DLQ keeping the -dlq ending. */
const renamed = (toml: string): string =>
  toml.replace(
    /"mcp-task-(jobs|steps|webhooks)(-dlq)?"/g,
    (_, kind: string, dlq: string | undefined) => `"second-deploy-${kind}-work${dlq ?? ""}"`,
  );

beforeAll(() => {
  writeFileSync(join(ROOT, COPY), renamed(readFileSync(join(ROOT, "wrangler.toml"), "utf8")));
});
afterAll(() => rmSync(join(ROOT, COPY), { force: true }));

// It reads the server's output (the step consumer's batch lines), so the server is its own.
const vars = { WEBHOOK_SECRET: SECRET, WEBHOOK_ALLOW_LOOPBACK: "true", WEBHOOK_RETRY_BASE_SECONDS: "1" };
const server = ownServer(() => ({ config: COPY, vars }));
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => receiver.close());

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("every queue renamed in wrangler.toml", () => {
  it("is a copy whose queues share no name with the original's", ({ expect }) => {
    const original = queueNames(unstable_readConfig({ config: join(ROOT, "wrangler.toml") }));
    const copy = queueNames(unstable_readConfig({ config: join(ROOT, COPY) }));
    expect(copy).toHaveLength(6);
    expect(original).toHaveLength(6);
    expect(copy.filter((name) => original.includes(name))).toEqual([]);
  });

  it("still runs a fan-out to its end: every item through the renamed step queue", async ({ expect }) => {
    const from = server.logs().length;
    const taskId = await startTask(server.url, "batch_process", { items: 12, secondsPerItem: 0.1, parallel: true });
    const result = await taskResult(server, taskId).catch(withServerLogs);
    const summary = "Processed 12 items.";
    expect(result["structuredContent"]).toEqual({ summary, items: 12, checksum: sumOfSquares(12) });
    expect(ofType(await eventLog(server.url, taskId), "step")).toHaveLength(12);
    const stored = () => expect(total(batchLines(server, from), "stored")).toBe(12);
    await vi.waitFor(stored, until(250)).catch(withServerLogs);
    const queues = new Set(batchLines(server, from).map((line) => line["queue"]));
    expect(queues).toEqual(new Set(["second-deploy-steps-work"]));
  });

  it("still delivers a webhook to its end, its retry back through the renamed queue", async ({ expect }) => {
    const path = "/hooks/renamed";
    receiver.failNext(path, 1, 503);
    const meta = { "mcp-task-worker/webhook": { url: `${receiver.url}${path}` } };
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, {}, meta);
    const completed = () =>
      receiver.received.filter((hook) => hook.path === path && hook.body.includes('"task.completed"'));
    const delivered = () => expect(completed().map((hook) => hook.status)).toEqual([503, 200]);
    await vi.waitFor(delivered, until(100)).catch(withServerLogs);
    expect(completed().every((hook) => hook.body.includes(taskId))).toBe(true);
  });
});
