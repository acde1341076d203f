// Sessions, the GET stream and task subscriptions against a real `wrangler dev`.
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { SHORT_INLINE_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { startTask } from "./support/tasks";
import { openSse, type SseReader } from "./support/sse-reader";
import { until } from "../until";

// Its calls are all task-augmented, so the inline wait is not its concern: it shares core.test.ts's server.
const server = sharedServer(SHORT_INLINE_VARS);
const V = { "MCP-Protocol-Version": "2025-11-25" };

/** A client that declares the tasks capability: only such a client hears a task's notifications. */
const TASKS_CLIENT = { tasks: { list: {}, cancel: {} } };

async function initialize(capabilities: Record<string, unknown> = {}): Promise<string> {
  const reply = await rpc(server.url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "sessions", version: "1" } },
  });
  const sessionId = reply.headers.get("Mcp-Session-Id");
  if (!sessionId) throw new Error(`no session id: ${reply.text}`);
  await rpc(
    server.url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { headers: { ...V, "Mcp-Session-Id": sessionId } },
  );
  return sessionId;
}

const inSession = (sessionId: string) => ({ headers: { ...V, "Mcp-Session-Id": sessionId } });
const getStream = (sessionId: string, extra: Record<string, string> = {}) =>
  openSse(`${server.url}/mcp`, {
    headers: { Accept: "text/event-stream", ...V, "Mcp-Session-Id": sessionId, ...extra },
  });

const startCountdown = (sessionId: string, seconds: number) =>
  startTask(server.url, "countdown", { seconds }, inSession(sessionId).headers);

/** Messages from a GET stream until `done` says stop. */
async function collect(
  stream: SseReader,
  done: (messages: { method?: string; params?: Record<string, unknown> }[]) => boolean,
) {
  const messages: { method?: string; params?: Record<string, unknown> }[] = [];
  const ids: string[] = [];
  while (!done(messages)) {
    const event = await stream.next();
    if (!event) throw new Error("stream ended early");
    if (event.id) ids.push(event.id);
    if (event.data) messages.push(JSON.parse(event.data));
  }
  return { messages, ids };
}

describe("sessions", () => {
  it("initialize returns a random visible-ASCII Mcp-Session-Id that later requests use", async ({ expect }) => {
    const a = await initialize();
    const b = await initialize();
    expect(a).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(a).not.toBe(b);
    const list = await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, inSession(a));
    expect(list.status).toBe(200);
  });

  it("DELETE /mcp ends the session; its id then gets 404 everywhere", async ({ expect }) => {
    const sessionId = await initialize();
    const del = await fetch(`${server.url}/mcp`, { method: "DELETE", headers: { ...V, "Mcp-Session-Id": sessionId } });
    expect(del.status).toBe(204);
    expect((await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, inSession(sessionId))).status).toBe(
      404,
    );
    expect(
      (await fetch(`${server.url}/mcp`, { headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId } }))
        .status,
    ).toBe(404);
    expect(
      (await fetch(`${server.url}/mcp`, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } })).status,
    ).toBe(404);
  });

  it("an unknown or malformed session id gets 404; a missing one on GET or DELETE gets 400", async ({ expect }) => {
    for (const bogus of ["A".repeat(43), "not a session id!", "x"]) {
      const reply = await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, inSession(bogus));
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ error: { message: expect.stringMatching(/initialize/) } });
    }
    expect((await fetch(`${server.url}/mcp`, { headers: { Accept: "text/event-stream" } })).status).toBe(400);
    expect((await fetch(`${server.url}/mcp`, { method: "DELETE" })).status).toBe(400);
  });

  it("POSTs without a session id are served statelessly", async ({ expect }) => {
    const reply = await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { headers: V });
    expect(reply.status).toBe(200);
  });
});

describe("the GET stream", () => {
  it("needs Accept: text/event-stream (406 otherwise)", async ({ expect }) => {
    const sessionId = await initialize();
    const reply = await fetch(`${server.url}/mcp`, {
      headers: { Accept: "application/json", "Mcp-Session-Id": sessionId },
    });
    expect(reply.status).toBe(406);
  });

  it("opens with a retry hint and a priming event id, refuses a second reader with 409, and frees the slot when the reader goes away", async ({
    expect,
  }) => {
    const sessionId = await initialize();
    const first = await getStream(sessionId);
    expect(first.status).toBe(200);
    const priming = await first.next();
    expect(priming?.id).toBe(`s.${sessionId}.0`);
    expect(first.raw()).toMatch(/^retry: \d+$/m);
    const second = await fetch(`${server.url}/mcp`, {
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId },
    });
    expect(second.status).toBe(409);
    await second.body?.cancel();
    first.drop();
    await vi.waitFor(async () => {
      const again = await fetch(`${server.url}/mcp`, {
        headers: { Accept: "text/event-stream", "Mcp-Session-Id": sessionId },
      });
      await again.body?.cancel();
      expect(again.status).toBe(200);
    }, until(200));
  });

  it("carries notifications/tasks/status of tasks created in the session", async ({ expect }) => {
    const sessionId = await initialize(TASKS_CLIENT);
    const stream = await getStream(sessionId);
    await stream.next();
    await startCountdown(sessionId, 1);
    const { messages } = await collect(stream, (m) => m.some((x) => x.params?.["status"] === "completed"));
    const statuses = messages.filter((m) => m.method === "notifications/tasks/status").map((m) => m.params?.["status"]);
    expect(statuses[0]).toBe("working");
    expect(statuses.at(-1)).toBe("completed");
    stream.drop();
  });

  it("resumes after a drop with Last-Event-ID: the missed events exactly once, in order", async ({ expect }) => {
    const sessionId = await initialize(TASKS_CLIENT);
    const stream = await getStream(sessionId);
    await stream.next();
    const taskId = await startCountdown(sessionId, 2);
    await rpc(
      server.url,
      { jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri: `task://${taskId}` } },
      inSession(sessionId),
    );
    const head = await collect(stream, (m) => m.length >= 2);
    stream.drop();
    const lastId = head.ids.at(-1) ?? "";
    // Wait for the task to finish while disconnected, then resume.
    await vi.waitFor(
      async () => expect((await fetch(`${server.url}/tasks/${taskId}`).then((r) => r.json())).status).toBe("completed"),
      until(250),
    );
    const resumed = await getStream(sessionId, { "Last-Event-ID": lastId });
    expect(resumed.status).toBe(200);
    const tail = await collect(
      resumed,
      (m) =>
        m.some((x) => x.params?.["status"] === "completed") &&
        m.filter((x) => x.method === "notifications/resources/updated").length >= 1,
    );
    const seqs = [...head.ids, ...tail.ids].map((id) => Number(id.split(".").at(-1)));
    // Priming ids repeat the resume point; every other id is new and increasing.
    const distinct = [...new Set(seqs)];
    expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
    expect(tail.ids.filter((id) => id !== lastId).every((id) => !head.ids.includes(id))).toBe(true);
    resumed.drop();
  });

  it("a Last-Event-ID no stream replays opens the GET stream fresh; an unknown task's: 404", async ({ expect }) => {
    const other = await initialize();
    const get = (sessionId: string, lastEventId: string) => {
      const headers = { Accept: "text/event-stream", "Mcp-Session-Id": sessionId, "Last-Event-ID": lastEventId };
      return fetch(`${server.url}/mcp`, { headers });
    };
    // Each on a session of its own: a fresh stream is the session's one reader.
    for (const lastEventId of ["garbage", `x.${"0".repeat(32)}.1`, "s.SESSION.999", `s.${other}.0`]) {
      const sessionId = await initialize();
      const reply = await get(sessionId, lastEventId.replace("SESSION", sessionId));
      expect(reply.status, lastEventId).toBe(200);
      await reply.body?.cancel();
    }
    expect((await get(other, `t.${"0".repeat(32)}.1.5`)).status).toBe(404);
    // Without the session header, an id that names no stream gets 400.
    const bare = await fetch(`${server.url}/mcp`, { headers: { Accept: "text/event-stream", "Last-Event-ID": "x" } });
    expect(bare.status).toBe(400);
  });
});

describe("task subscriptions", () => {
  it("resources/subscribe sends notifications/resources/updated on every change; unsubscribe stops them", async ({
    expect,
  }) => {
    const sessionId = await initialize();
    const stream = await getStream(sessionId);
    await stream.next();
    // Tasks made outside the session, so only the subscription routes them here.
    const make = async (seconds: number) => {
      const reply = await rpc(
        server.url,
        {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "countdown", arguments: { seconds }, task: {} },
        },
        { headers: V },
      );
      return (reply.body as { result: { task: { taskId: string } } }).result.task.taskId;
    };
    const watched = await make(3);
    const sub = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 8, method: "resources/subscribe", params: { uri: `task://${watched}` } },
      inSession(sessionId),
    );
    expect(sub.body).toMatchObject({ result: {} });
    await collect(stream, (m) =>
      m.some((x) => x.method === "notifications/resources/updated" && x.params?.["uri"] === `task://${watched}`),
    );
    const unsub = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 9, method: "resources/unsubscribe", params: { uri: `task://${watched}` } },
      inSession(sessionId),
    );
    expect(unsub.body).toMatchObject({ result: {} });
    // A marker: a second task subscribed after the first one has surely finished.
    await vi.waitFor(
      async () =>
        expect((await fetch(`${server.url}/tasks/${watched}`).then((r) => r.json())).status).toBe("completed"),
      until(250),
    );
    const marker = await make(1);
    await rpc(
      server.url,
      { jsonrpc: "2.0", id: 10, method: "resources/subscribe", params: { uri: `task://${marker}` } },
      inSession(sessionId),
    );
    const after = await collect(stream, (m) => m.some((x) => x.params?.["uri"] === `task://${marker}`));
    const late = after.messages.filter((m) => m.params?.["uri"] === `task://${watched}`);
    // At most one update can have been in flight when unsubscribe answered.
    expect(late.length).toBeLessThanOrEqual(1);
    stream.drop();
  });

  it("refuses unknown tasks, non-task URIs and calls without a session", async ({ expect }) => {
    const sessionId = await initialize();
    const unknown = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: `task://${"a".repeat(32)}` } },
      inSession(sessionId),
    );
    expect(unknown.body).toMatchObject({ error: { code: -32602 } });
    const other = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: "file:///etc/passwd" } },
      inSession(sessionId),
    );
    expect(other.body).toMatchObject({ error: { code: -32602 } });
    const stateless = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: `task://${"a".repeat(32)}` } },
      { headers: V },
    );
    expect(stateless.body).toMatchObject({ error: { code: -32600 } });
  });
});
