// The Events extension's poll and push modes over raw 2026-07-28 HTTP (no packaged client speaks
// them), deploy.finished from a real deploy, and the refusals: each a JSON-RPC error, nothing stored.
import { afterAll, describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { errorOf, modern, openStream, resultOf, startTask, TASKS, type LiveStream } from "./support/modern";
import { EVENTS_VARS } from "./support/server-settings";
import { until } from "../until";

const server = sharedServer(EVENTS_VARS);
// No API keys: loopback callers are the anonymous principal of local dev.
const keyless = sharedServer();
const alice = { headers: { Authorization: "Bearer alice-events-token" } };
const bob = { headers: { Authorization: "Bearer bob-events-token" } };
const carol = { headers: { Authorization: "Bearer carol-events-token" } };
const SECRET = `whsec_${Buffer.from("0123456789abcdef01234567").toString("base64")}`;
const streams: LiveStream[] = [];

afterAll(() => {
  for (const stream of streams) stream.close();
});

const waitUntil = (check: () => boolean | Promise<boolean>): Promise<void> =>
  vi.waitFor(async () => {
    if (!(await check())) throw new Error("not yet");
  }, until());

type Occurrence = { eventId: string; name: string; timestamp: string; data: Record<string, unknown> };

async function poll(who: typeof alice, params: Record<string, unknown>) {
  const result = resultOf(await modern(server.url, "events/poll", params, who));
  return result as { events: Occurrence[]; cursor: string; truncated: boolean; hasMore: boolean; nextPollMs: number };
}

async function pollUntil(who: typeof alice, params: Record<string, unknown>, done: (events: Occurrence[]) => boolean) {
  let events: Occurrence[] = [];
  let cursor = params["cursor"];
  await waitUntil(async () => {
    const page = await poll(who, { ...params, cursor });
    events = [...events, ...page.events];
    cursor = page.cursor;
    return done(events);
  });
  return { events, cursor };
}

describe("the extension's declaration", () => {
  it("is in server/discover under both keys the clients read, and 2025 clients get method not found", async ({
    expect,
  }) => {
    const discovered = resultOf(await modern(server.url, "server/discover", {}, alice));
    expect(discovered["capabilities"]).toMatchObject({
      extensions: { "io.modelcontextprotocol/events": { listChanged: false } },
      events: {},
    });
    const legacy = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...alice.headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "events/poll", params: { name: "task.status" } }),
    });
    expect(legacy.status).toBeLessThan(500);
    expect(await legacy.json()).toMatchObject({ error: { code: -32601 } });
  });
});

describe("events/poll", () => {
  it("starts at now with a null cursor, then returns the caller's task changes in order, filtered by taskId", async ({
    expect,
  }) => {
    const start = await poll(alice, { name: "task.status", arguments: {}, cursor: null });
    expect(start).toMatchObject({ events: [], truncated: false, hasMore: false });
    expect(start.nextPollMs).toBeGreaterThanOrEqual(1000);
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const { events } = await pollUntil(
      alice,
      { name: "task.status", arguments: { taskId }, cursor: start.cursor },
      (seen) => seen.some((event) => event.data["status"] === "completed"),
    );
    expect(events.map((event) => event.data["status"])).toEqual(["working", "completed"]);
    expect(events[0]?.data).toMatchObject({ taskId, tool: "countdown", status: "working" });
    expect(Date.parse(events[1]?.timestamp ?? "")).toBeGreaterThanOrEqual(Date.parse(events[0]?.timestamp ?? ""));
    // Bob polls his own log: Alice's task is not in it, whatever he names.
    const bobs = await poll(bob, { name: "task.status", arguments: { taskId }, cursor: null, maxAgeMs: 600_000 });
    expect(bobs.events).toEqual([]);
  });

  it("replays by maxAgeMs from a null cursor, and pages with maxEvents and hasMore", async ({ expect }) => {
    const ids = await Promise.all([1, 2, 3].map(() => startTask(server.url, "countdown", { seconds: 1 }, carol)));
    await pollUntil(
      carol,
      { name: "task.status", arguments: { status: ["completed"] }, cursor: null, maxAgeMs: 600_000 },
      (seen) => ids.every((id) => seen.some((event) => event.data["taskId"] === id)),
    );
    const first = await poll(carol, {
      name: "task.status",
      arguments: {},
      cursor: null,
      maxAgeMs: 600_000,
      maxEvents: 2,
    });
    expect(first.events).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    expect(first.nextPollMs).toBe(0);
    const second = await poll(carol, { name: "task.status", arguments: {}, cursor: first.cursor, maxEvents: 100 });
    const all = [...first.events, ...second.events].map((event) => event.eventId);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(6);
  });
});

describe("events/stream", () => {
  it("sends active first, each occurrence with its cursor, and heartbeats while quiet, all tagged", async ({
    expect,
  }) => {
    const stream = await openStream(
      server.url,
      "events/stream",
      { name: "task.status", arguments: {}, cursor: null },
      { ...alice, id: "s-1" },
    );
    streams.push(stream);
    await waitUntil(() => stream.messages.length > 0);
    expect(stream.messages[0]).toMatchObject({ method: "notifications/events/active", params: { truncated: false } });
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const ofTask = () =>
      stream.messages.filter(
        (message) => message["method"] === "notifications/events/event" && JSON.stringify(message).includes(taskId),
      );
    await waitUntil(() => ofTask().length === 2);
    await waitUntil(() => stream.messages.some((message) => message["method"] === "notifications/events/heartbeat"));
    for (const message of stream.messages)
      expect(message).toMatchObject({ params: { _meta: { "io.modelcontextprotocol/subscriptionId": "s-1" } } });
    const cursors = ofTask().map((message) => (message["params"] as { cursor: string }).cursor);
    expect(cursors).toHaveLength(2);
    // A resume from the first occurrence's cursor gets the second, and no other.
    const resumed = await poll(alice, { name: "task.status", arguments: { taskId }, cursor: cursors[0] });
    expect(resumed.events.map((event) => event.data["status"])).toEqual(["completed"]);
    stream.close();
  });

  it("bounds the streams one principal holds open (-32025), and frees a closed one", async ({ expect }) => {
    const open = await Promise.all(
      [1, 2].map((n) =>
        openStream(
          server.url,
          "events/stream",
          { name: "deploy.finished", arguments: {}, cursor: null },
          { ...bob, id: n },
        ),
      ),
    );
    streams.push(...open);
    await waitUntil(() => open.every((stream) => stream.messages.length > 0));
    const third = await modern(
      server.url,
      "events/stream",
      { name: "deploy.finished", arguments: {}, cursor: null },
      bob,
    );
    expect(errorOf(third)).toMatchObject({ code: -32025, data: { limit: 2 } });
    open[0]?.close();
    await waitUntil(async () => {
      const retry = await openStream(
        server.url,
        "events/stream",
        { name: "deploy.finished", arguments: {}, cursor: null },
        bob,
      );
      streams.push(retry);
      await waitUntil(() => retry.messages.length > 0 || retry.text().includes("error"));
      return retry.messages[0]?.["method"] === "notifications/events/active";
    });
  });
});

describe("task.status carries the engine's failure words", () => {
  it("says why a task failed, in words a model can use, with no stack", async ({ expect }) => {
    const start = await poll(carol, { name: "task.status", arguments: { status: ["failed"] }, cursor: null });
    const taskId = await startTask(server.url, "external_job", { durationSeconds: 1, simulate: "closed" }, carol);
    const { events } = await pollUntil(
      carol,
      { name: "task.status", arguments: { taskId, status: ["failed"] }, cursor: start.cursor },
      (seen) => seen.length > 0,
    );
    const words = String(events[0]?.data["statusMessage"]);
    expect(words).toMatch(/failed after 3 attempts/);
    expect(words).not.toMatch(/\n\s+at /);
  });
});

describe("deploy.finished", () => {
  it("tells the deploy's owner its outcome, filtered by service", async ({ expect }) => {
    const start = await poll(carol, { name: "deploy.finished", arguments: { service: "billing" }, cursor: null });
    const taskId = await startTask(server.url, "deploy", { service: "billing", version: "1.2.3" }, carol);
    await waitUntil(
      async () =>
        resultOf(await modern(server.url, "tasks/get", { taskId }, { ...carol, capabilities: TASKS }))["status"] ===
        "input_required",
    );
    const answered = await modern(
      server.url,
      "tasks/update",
      { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } },
      { ...carol, capabilities: TASKS },
    );
    expect(answered.status).toBe(200);
    const { events } = await pollUntil(
      carol,
      { name: "deploy.finished", arguments: { service: "billing" }, cursor: start.cursor },
      (seen) => seen.length > 0,
    );
    expect(events[0]?.data).toEqual({ service: "billing", version: "1.2.3", outcome: "deployed", taskId });
    const other = await poll(carol, {
      name: "deploy.finished",
      arguments: { service: "search" },
      cursor: start.cursor,
    });
    expect(other.events).toEqual([]);
  });
});

describe("refusals", () => {
  const subscribe = (params: Record<string, unknown>, who = carol) =>
    modern(server.url, "events/subscribe", params, who);
  const base = {
    name: "task.status",
    arguments: {},
    delivery: { mode: "webhook", url: "https://hooks.invalid/x", secret: SECRET },
    cursor: null,
  };

  it.for<[string, string, Record<string, unknown>, number]>([
    ["an unknown event", "events/poll", { name: "no.such", arguments: {}, cursor: null }, -32023],
    [
      "arguments the schema refuses",
      "events/poll",
      { name: "task.status", arguments: { nope: 1 }, cursor: null },
      -32602,
    ],
    [
      "a wrongly typed argument",
      "events/poll",
      { name: "task.status", arguments: { status: "completed" }, cursor: null },
      -32602,
    ],
    ["a garbage cursor", "events/poll", { name: "task.status", arguments: {}, cursor: "garbage" }, -32602],
    ["a cursor of the wrong type", "events/stream", { name: "task.status", arguments: {}, cursor: 7 }, -32602],
    ["no name", "events/poll", { arguments: {} }, -32602],
    ["a huge name", "events/poll", { name: "x".repeat(10_000), arguments: {} }, -32602],
    [
      "a plain http callback",
      "events/subscribe",
      { ...base, delivery: { ...base.delivery, url: "http://hooks.invalid/x" } },
      -32602,
    ],
    [
      "a private callback",
      "events/subscribe",
      { ...base, delivery: { ...base.delivery, url: "https://10.0.0.8/x" } },
      -32602,
    ],
    [
      "a metadata callback",
      "events/subscribe",
      { ...base, delivery: { ...base.delivery, url: "https://169.254.169.254/x" } },
      -32602,
    ],
    [
      "a short secret",
      "events/subscribe",
      { ...base, delivery: { ...base.delivery, secret: "whsec_c2hvcnQ=" } },
      -32602,
    ],
    [
      "a secret without its prefix",
      "events/subscribe",
      { ...base, delivery: { ...base.delivery, secret: SECRET.slice(6) } },
      -32602,
    ],
    ["another delivery mode", "events/subscribe", { ...base, delivery: { ...base.delivery, mode: "push" } }, -32602],
    [
      "an unreachable callback",
      "events/subscribe",
      { ...base, delivery: { ...base.delivery, url: "http://127.0.0.1:9/x" } },
      -32027,
    ],
  ])("answers %s with a JSON-RPC error", async ([, method, params, code], { expect }) => {
    const reply = await modern(server.url, method, params, carol);
    expect(reply.status).toBeLessThan(500);
    expect(errorOf(reply).code).toBe(code);
  });

  it("refuses deep arguments without a 5xx", async ({ expect }) => {
    let deep: unknown = "x";
    for (let i = 0; i < 200; i++) deep = { a: deep };
    const reply = await modern(
      server.url,
      "events/poll",
      { name: "task.status", arguments: { taskId: deep }, cursor: null },
      carol,
    );
    expect(reply.status).toBeLessThan(500);
  });

  it("answers a flood of subscriptions with -32025 past the quota, storing none of the refused", async ({ expect }) => {
    // A receiver that answers challenges: the server's own echo of them is not needed, a 2xx with the challenge is.
    const { startEventReceiver } = await import("./support/event-receiver");
    const { createMCPClient } = await import("@ai-sdk/mcp");
    const receiver = await startEventReceiver();
    const client = await createMCPClient({
      transport: { type: "http", url: `${server.url}/mcp`, headers: bob.headers },
      experimental_events: { store: receiver.store },
    });
    try {
      const codes: string[] = [];
      for (let n = 0; n < 6; n++) {
        try {
          await client.experimental_events.subscribe({
            name: "task.status",
            arguments: { taskId: `t${n}` },
            delivery: { mode: "webhook", url: receiver.url, allowInsecureLocalhost: true },
          });
          codes.push("ok");
        } catch (error) {
          codes.push(
            String(error instanceof Error ? error.message : error).includes("Resource exhausted")
              ? "-32025"
              : String(error),
          );
        }
      }
      expect(codes).toEqual(["ok", "ok", "ok", "ok", "-32025", "-32025"]);
    } finally {
      await client.close();
      await receiver.close();
    }
  });

  it("refuses the anonymous principal a webhook to anywhere but loopback (-32024), and keyed servers a keyless call (401)", async ({
    expect,
  }) => {
    const anonymous = await modern(keyless.url, "events/subscribe", base, {});
    expect(errorOf(anonymous).code).toBe(-32024);
    const keyed = await modern(server.url, "events/subscribe", base, {});
    expect(keyed.status).toBe(401);
  });
});
