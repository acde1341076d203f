// The Events extension's webhook mode with the client agents run: the AI SDK's MCP client
// (@ai-sdk/mcp 2.0.99: experimental_events.subscribe / refresh / unsubscribe) and its webhook
// handler (experimental_createMCPEventWebhook, which verifies every signature and answers the
// challenge), against wrangler dev, two principals, a receiver that fails first.
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { startEventReceiver, type EventReceiver } from "./support/event-receiver";
import { modern, resultOf, startTask, TASKS } from "./support/modern";
import { EVENTS_VARS } from "./support/server-settings";
import { until } from "../until";

const server = sharedServer(EVENTS_VARS);
const alice = { Authorization: "Bearer alice-events-token" };
const bob = { Authorization: "Bearer bob-events-token" };

let receiver: EventReceiver;
let aliceClient: MCPClient;
let bobClient: MCPClient;

const connect = (headers: Record<string, string>, store: EventReceiver["store"]) =>
  createMCPClient({
    transport: { type: "http", url: `${server.url}/mcp`, headers },
    experimental_events: { store },
  });

beforeAll(async () => {
  receiver = await startEventReceiver();
  aliceClient = await connect(alice, receiver.store);
  bobClient = await connect(bob, receiver.store);
});

afterAll(async () => {
  await aliceClient?.close();
  await bobClient?.close();
  await receiver?.close();
});

/** Waits until `check` holds (or the hang guard of test/until.ts fails the test). */
const waitUntil = (check: () => boolean | Promise<boolean>): Promise<void> =>
  vi.waitFor(async () => {
    if (!(await check())) throw new Error("not yet");
  }, until());

const eventsFor = (taskId: string) => receiver.events.filter((event) => event.data["taskId"] === taskId);

describe("task.status over webhooks with the AI SDK", () => {
  it("lists task.status and deploy.finished with webhook delivery", async ({ expect }) => {
    const listed = await aliceClient.experimental_events.list();
    const names = listed.events.map((event) => event.name);
    expect(names).toEqual(expect.arrayContaining(["task.status", "deploy.finished"]));
    for (const event of listed.events)
      expect(event.delivery).toEqual(expect.arrayContaining(["poll", "push", "webhook"]));
  });

  it("delivers every status change of the caller's task, signed, once, and stops after unsubscribe", async ({
    expect,
  }) => {
    const subscribed = await aliceClient.experimental_events.subscribe({
      name: "task.status",
      arguments: { tool: "countdown" },
      delivery: { mode: "webhook", url: receiver.url, allowInsecureLocalhost: true },
      ttlMs: 600_000,
    });
    expect(subscribed.id).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(subscribed.truncated).toBe(false);
    expect(Date.parse(subscribed.refreshBefore ?? "")).toBeGreaterThan(Date.now());
    // The handshake reached the handler before anything else, with the subscription's id.
    const challenge = receiver.posts.find((post) => post.body.includes('"verification"'));
    expect(challenge?.headers["x-mcp-subscription-id"]).toBe(subscribed.id);

    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, { headers: alice });
    await waitUntil(() => eventsFor(taskId).some((event) => event.data["status"] === "completed"));
    const statuses = eventsFor(taskId).map((event) => event.data["status"]);
    expect(statuses).toEqual(["working", "completed"]);
    for (const event of eventsFor(taskId)) {
      expect(event.subscriptionId).toBe(subscribed.id);
      expect(event.eventId.startsWith(taskId)).toBe(true);
      expect(event.cursor).toMatch(/^[0-9a-f]{16}\.\d+$/);
    }
    // Bob's task is not Alice's business.
    const bobTask = await startTask(server.url, "countdown", { seconds: 1 }, { headers: bob });

    const refreshed = await aliceClient.experimental_events.refresh({ id: subscribed.id });
    expect(refreshed.id).toBe(subscribed.id);

    await aliceClient.experimental_events.unsubscribe({ id: subscribed.id });
    const after = await startTask(server.url, "countdown", { seconds: 1 }, { headers: alice });
    // Wait until the task is done, then for a delivery the subscription would have made.
    await waitUntil(
      async () =>
        resultOf(await modern(server.url, "tasks/get", { taskId: after }, { capabilities: TASKS, headers: alice }))[
          "status"
        ] === "completed",
    );
    expect(eventsFor(after)).toEqual([]);
    expect(eventsFor(bobTask)).toEqual([]);
  });

  it("retries a delivery its receiver answered 503 and delivers it once with the same eventId", async ({ expect }) => {
    const subscribed = await aliceClient.experimental_events.subscribe({
      name: "task.status",
      arguments: { tool: "countdown", status: ["completed"] },
      delivery: { mode: "webhook", url: `${receiver.url}?retry=1`, allowInsecureLocalhost: true },
    });
    // The receiver is down for the first two attempts (the AI SDK's own answer to "not ready yet").
    receiver.failNext(2, 503);
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, { headers: alice });
    await waitUntil(() => eventsFor(taskId).length > 0);
    const delivered = eventsFor(taskId).filter((event) => event.subscriptionId === subscribed.id);
    expect(delivered.map((event) => event.data["status"])).toEqual(["completed"]);
    const attempts = receiver.posts.filter((post) => post.body.includes(`"eventId":"${delivered[0]?.eventId}"`));
    expect(attempts.map((post) => post.status)).toEqual([503, 503, 204]);
    // Each attempt is signed anew, under the same webhook-id: the occurrence's eventId.
    expect(new Set(attempts.map((post) => post.headers["webhook-id"]))).toEqual(new Set([delivered[0]?.eventId]));
    await aliceClient.experimental_events.unsubscribe({ id: subscribed.id });
  });

  it("keeps principals apart: bob's unsubscribe of the same URL and arguments leaves alice's subscription", async ({
    expect,
  }) => {
    const url = `${receiver.url}?pair=1`;
    const aliceSub = await aliceClient.experimental_events.subscribe({
      name: "task.status",
      arguments: { tool: "countdown" },
      delivery: { mode: "webhook", url, allowInsecureLocalhost: true },
    });
    // The same (url, name, arguments) under bob is another subscription, with another id.
    const raw = await modern(
      server.url,
      "events/unsubscribe",
      { name: "task.status", arguments: { tool: "countdown" }, delivery: { url: `${url}&mcp_event_subscription=x` } },
      { headers: bob },
    );
    expect(resultOf(raw)).toMatchObject({ resultType: "complete" });
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, { headers: alice });
    await waitUntil(() =>
      eventsFor(taskId).some((event) => event.subscriptionId === aliceSub.id && event.data["status"] === "completed"),
    );
    expect(eventsFor(taskId).every((event) => event.subscriptionId === aliceSub.id)).toBe(true);
    await aliceClient.experimental_events.unsubscribe({ id: aliceSub.id });
    expect(bobClient).toBeDefined();
  });
});
