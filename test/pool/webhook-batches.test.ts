// A large publish with a webhook asking for `partial` (issue 41): the observer's messages go on the
// real WEBHOOKS queue (Miniflare holds them to the Queues limits) in calls within those limits, and
// the real consumer delivers every one. Deliveries are POSTs to a stubbed fetch: nothing leaves.
import { afterEach, describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import type { TaskEvent } from "../../src/core";
import { AdapterStateStore } from "../../src/core/object/adapter-state";
import { webhookObserver } from "../../src/webhooks/webhook-observer";
import type { TaskObject } from "../../src/index";
import { freshTask, storedRecord } from "./support";
import { until } from "../until";

const HOOK_URL = "https://hooks.example.com/in";
const settle = until(100);

/** Every webhook POSTed to HOOK_URL, by webhook-id, with its event type. */
function receiver(): Map<string, string> {
  const received = new Map<string, string>();
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url !== HOOK_URL) return realFetch(request);
    const body = (await request.json()) as { type: string };
    received.set(request.headers.get("webhook-id") ?? "", body.type);
    return new Response(null, { status: 204 });
  });
  return received;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** One publish of `pieces` text pieces of `chars` characters each, as the commit's partial events. */
const publishEvents = (pieces: number, chars: number): TaskEvent[] =>
  Array.from({ length: pieces }, (_, i) => ({
    seq: 10 + i,
    at: Date.now(),
    type: "partial",
    data: { n: i + 1, content: { type: "text", text: `${i + 1}:`.padEnd(chars, "x") } },
  }));

/** The task's log lines. */
async function logLines(events: () => Promise<TaskEvent[]>): Promise<string[]> {
  return (await events()).flatMap((event) => (event.type === "log" ? [event.data.message] : []));
}

describe("a large publish with a webhook asking for partial", () => {
  it("delivers a task.partial for each of 100 pieces of 2,500 characters", async ({ expect }) => {
    const received = receiver();
    const { stub, input, taskId } = freshTask(
      "countdown",
      { seconds: 600 },
      {
        meta: { webhook: { url: HOOK_URL, events: ["partial"] } },
      },
    );
    await stub.create(input);
    const record = await storedRecord(stub);
    if (!record) throw new Error("the task was not stored");
    const events = publishEvents(100, 2500);
    await runInDurableObject(stub, async (_instance: TaskObject, state: DurableObjectState) => {
      const adapterState = new AdapterStateStore(state.storage.sql, () => 0);
      await webhookObserver({ env, record, events, state: adapterState, received: () => undefined });
    });
    const ids = events.map((event) => `${taskId}.${event.seq}`);
    await vi.waitFor(() => expect([...received.keys()].sort()).toEqual([...ids].sort()), settle);
    expect(new Set(received.values())).toEqual(new Set(["task.partial"]));
    expect((await logLines(() => stub.events(0))).filter((line) => /could not be queued/.test(line))).toEqual([]);
    await stub.cancel();
  });

  it("keeps the cause of a log line longer than 2,000 characters: the line is cut by its middle", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 600 });
    await stub.create(input);
    const ids = Array.from({ length: 100 }, (_, i) => `${input.taskId}.${i + 10}`).join(", ");
    await stub.appendLog("error", `Webhook events ${ids} could not be queued: Unknown Internal Error (15000)`);
    const [line] = await logLines(() => stub.events(0));
    expect(line?.length).toBeLessThanOrEqual(2000);
    expect(line).toMatch(/^Webhook events [0-9a-f]{32}\.10, /);
    expect(line).toMatch(/ \[…\d+ characters cut…\] .*could not be queued: Unknown Internal Error \(15000\)$/);
    await stub.cancel();
  });
});
