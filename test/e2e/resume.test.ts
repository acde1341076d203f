// Resumption against a real `wrangler dev`: a response stream is dropped mid-task and resumed
// with Last-Event-ID, by the SDK's own client transport and by raw HTTP. Every progress value
// must arrive exactly once, in order, followed by the response.
import { describe, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sharedServer } from "./support/dev-server";
import { LONG_INLINE_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { openSse, type SseReader } from "./support/sse-reader";
import { until } from "../until";

// A long inline wait: its plain calls (up to 5 s) answer inline on their resumed streams (support/server-settings.ts).
const server = sharedServer(LONG_INLINE_VARS);
const V = { "MCP-Protocol-Version": "2025-11-25" };
const SSE_POST = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...V };

interface Message {
  id?: string | number;
  method?: string;
  params?: { progress?: number; progressToken?: string | number; status?: string };
  result?: { content?: { text?: string }[] };
}

/** Reads JSON-RPC messages until `stop` says so; returns them with their event ids. */
async function readUntil(stream: SseReader, stop: (m: Message) => boolean) {
  const got: { id: string; message: Message }[] = [];
  for (;;) {
    const event = await stream.next();
    if (!event) return { got, ended: true };
    if (!event.data) continue;
    const message = JSON.parse(event.data) as Message;
    got.push({ id: event.id ?? "", message });
    if (stop(message)) return { got, ended: false };
  }
}

const progressOf = (messages: Message[]) =>
  messages.filter((m) => m.method === "notifications/progress").map((m) => m.params?.progress);
const resume = (lastEventId: string) =>
  openSse(`${server.url}/mcp`, { headers: { Accept: "text/event-stream", ...V, "Last-Event-ID": lastEventId } });

/** A fetch that cuts the first tools/call SSE response after it has carried `events` event ids. */
function droppingFetch(events: number): { fetch: typeof fetch; dropped: () => boolean } {
  let dropped = false;
  const cutting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const isCall = init?.method === "POST" && typeof init.body === "string" && init.body.includes('"tools/call"');
    if (
      dropped ||
      !isCall ||
      !response.body ||
      !(response.headers.get("content-type") ?? "").includes("text/event-stream")
    )
      return response;
    dropped = true;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = 0;
    let cut = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (cut) {
          await reader.cancel();
          controller.error(new TypeError("network connection lost"));
          return;
        }
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        seen += (decoder.decode(value, { stream: true }).match(/^id: /gm) ?? []).length;
        if (seen >= events) cut = true;
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: cutting, dropped: () => dropped };
}

/** A countdown called through the SDK's own client, whose first tools/call stream is cut after `events` event ids. */
async function countdownThroughCut(seconds: number, events: number) {
  const cutter = droppingFetch(events);
  const client = new Client({ name: "resume", version: "1" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    fetch: cutter.fetch,
    reconnectionOptions: {
      initialReconnectionDelay: 200,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 5,
    },
  });
  await client.connect(transport);
  const progress: number[] = [];
  try {
    const result = await client.callTool({ name: "countdown", arguments: { seconds } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 60_000,
    });
    return { dropped: cutter.dropped(), progress, content: result.content };
  } finally {
    await client.close();
  }
}

describe("the SDK client resumes a dropped tools/call stream", () => {
  it("gets every progress value exactly once and then the result", async ({ expect }) => {
    const run = await countdownThroughCut(5, 2);
    expect(run.dropped).toBe(true);
    expect(run.progress).toEqual([1, 2, 3, 4, 5]);
    expect(run.content).toEqual([{ type: "text", text: "Countdown of 5 s finished." }]);
  });

  it("resumes a stream cut right after its first event (the priming id): all progress once, then the result", async ({
    expect,
  }) => {
    const run = await countdownThroughCut(3, 1);
    expect(run.dropped).toBe(true);
    expect(run.progress).toEqual([1, 2, 3]);
    expect(run.content).toEqual([{ type: "text", text: "Countdown of 3 s finished." }]);
  });
});

describe("raw HTTP resumption with Last-Event-ID", () => {
  it("a task's response stream opens with a priming event id, so a drop before any progress is resumable", async ({
    expect,
  }) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: "early",
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 2 }, _meta: { progressToken: "e" } },
    });
    const first = await openSse(`${server.url}/mcp`, { method: "POST", headers: SSE_POST, body });
    const opening = await first.next();
    first.drop();
    expect(opening?.id).toMatch(/^t\.[0-9a-f]{32}\.\d+\.0$/);
    expect(opening?.data).toBe("");
    const tail = await readUntil(await resume(opening?.id ?? ""), (m) => m.id === "early");
    expect(progressOf(tail.got.map((g) => g.message))).toEqual([1, 2]);
    expect(tail.got.at(-1)?.message.result?.content?.[0]?.text).toBe("Countdown of 2 s finished.");
  });

  it("a plain tools/call stream: the rest of the progress, once each, then the response", async ({ expect }) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: "call-1",
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 4 }, _meta: { progressToken: "p1" } },
    });
    const first = await openSse(`${server.url}/mcp`, { method: "POST", headers: SSE_POST, body });
    const head = await readUntil(first, (m) => m.method === "notifications/progress" && m.params?.progress === 2);
    first.drop();
    const lastId = head.got.at(-1)?.id ?? "";
    expect(lastId).toMatch(/^t\.[0-9a-f]{32}\.\d+\.\d+$/);
    const second = await resume(lastId);
    expect(second.status).toBe(200);
    const tail = await readUntil(second, (m) => m.id === "call-1");
    const all = [...head.got, ...tail.got].map((g) => g.message);
    const seen = (got: typeof head.got) =>
      got.map((g) => `${g.id} ${g.message.method ?? g.message.id} ${g.message.params?.progress ?? ""}`);
    expect(
      progressOf(all),
      JSON.stringify({ lastId, head: seen(head.got), tail: seen(tail.got), tailEnded: tail.ended }),
    ).toEqual([1, 2, 3, 4]);
    expect(all.every((m) => m.method !== "notifications/progress" || m.params?.progressToken === "p1")).toBe(true);
    expect(all.at(-1)?.result?.content?.[0]?.text).toBe("Countdown of 4 s finished.");
    const ids = [...head.got, ...tail.got].map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The stream ends after the response.
    expect(await second.next()).toBeUndefined();
  });

  it("a tasks/result stream keeps the original progressToken and resumes the same way", async ({ expect }) => {
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { seconds: 4 }, task: {}, _meta: { progressToken: 77 } },
      },
      { headers: V },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 42, method: "tasks/result", params: { taskId } });
    const first = await openSse(`${server.url}/mcp`, { method: "POST", headers: SSE_POST, body });
    const head = await readUntil(first, (m) => m.method === "notifications/progress");
    first.drop();
    const second = await resume(head.got.at(-1)?.id ?? "");
    const tail = await readUntil(second, (m) => m.id === 42);
    const all = [...head.got, ...tail.got].map((g) => g.message);
    const progress = progressOf(all);
    // tasks/result started after the task did, so it may have missed the first values; none repeats.
    expect(progress.at(-1)).toBe(4);
    expect(progress).toEqual([...progress].sort((a = 0, b = 0) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
    expect(all.every((m) => m.method !== "notifications/progress" || m.params?.progressToken === 77)).toBe(true);
    expect(all.at(-1)?.result?.content?.[0]?.text).toBe("Countdown of 4 s finished.");
  });

  it("a resume after the task ended replays the missed events and the response at once", async ({ expect }) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 2 }, _meta: { progressToken: "late" } },
    });
    const first = await openSse(`${server.url}/mcp`, { method: "POST", headers: SSE_POST, body });
    const head = await readUntil(first, (m) => m.method === "notifications/progress");
    first.drop();
    const taskId = (head.got[0]?.id ?? "").split(".")[1];
    await vi.waitFor(
      async () =>
        expect(
          ((await fetch(`${server.url}/tasks/${taskId}`).then((r) => r.json())) as { status: string }).status,
        ).toBe("completed"),
      until(200),
    );
    const tail = await readUntil(await resume(head.got.at(-1)?.id ?? ""), (m) => m.id === 9);
    expect(progressOf([...head.got, ...tail.got].map((g) => g.message))).toEqual([1, 2]);
  });

  it("refuses a garbage, unknown or foreign-task event id with 4xx at once", async ({ expect }) => {
    const get = (id: string) =>
      fetch(`${server.url}/mcp`, { headers: { Accept: "text/event-stream", ...V, "Last-Event-ID": id } });
    expect((await get("not-an-id")).status).toBe(400);
    expect((await get(`t.${"f".repeat(32)}.1.1`)).status).toBe(404);
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { seconds: 1 }, task: {} },
      },
      { headers: V },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    expect((await get(`t.${taskId}.99.1`)).status).toBe(404);
    expect((await get(`t.${taskId}.1.999999`)).status).toBe(404);
  });
});

describe("GET /tasks/{id}/events resumption", () => {
  it("replays exactly what followed the Last-Event-ID", async ({ expect }) => {
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { seconds: 3 }, task: {} },
      },
      { headers: V },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    const url = `${server.url}/tasks/${taskId}/events`;
    const first = await openSse(url);
    const head = [await first.next(), await first.next()];
    first.drop();
    const lastId = head.at(-1)?.id ?? "";
    // Like a real client, reconnect until the result arrives (wrangler dev reloads on source edits).
    const tail: { id?: string; event?: string }[] = [];
    for (let attempt = 0; attempt < 5 && tail.at(-1)?.event !== "result"; attempt++) {
      const second = await openSse(url, { headers: { "Last-Event-ID": tail.at(-1)?.id ?? lastId } });
      for (let event = await second.next(); event; event = await second.next()) tail.push(event);
    }
    const ids = [...head, ...tail].map((e) => e?.id ?? "");
    const full = await openSse(url);
    const all = [];
    for (let event = await full.next(); event; event = await full.next()) all.push(event);
    expect(ids).toEqual(all.map((e) => e.id));
    expect(tail.at(-1)?.event).toBe("result");
  });
});

describe("GET /tasks/{id}/events readers sharing one socket", () => {
  // The Worker serves all readers of a task from one socket to its object, held by the first
  // reader's request. That reader leaves mid-task; readers that joined before and after must still
  // get every event exactly once, in order, through the result.
  it("the reader whose request holds the socket drops; every other reader still gets each event once", async ({
    expect,
  }) => {
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "batch_process", arguments: { items: 8, secondsPerItem: 0.25 }, task: {} },
      },
      { headers: V },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    const url = `${server.url}/tasks/${taskId}/events`;
    const readAll = async (reader: SseReader) => {
      const events: { id?: string; event?: string }[] = [];
      for (let event = await reader.next(); event; event = await reader.next()) events.push(event);
      return events;
    };
    const owner = await openSse(url);
    const early = await Promise.all([openSse(url), openSse(url)]);
    await owner.next();
    await owner.next();
    owner.drop();
    const late = await openSse(url);
    const resumedFrom = (await early[0]!.next())?.id ?? "";
    const resumed = await openSse(url, { headers: { "Last-Event-ID": resumedFrom } });
    const [earlyA, earlyB, lateEvents, resumedEvents] = await Promise.all([
      readAll(early[0]!),
      readAll(early[1]!),
      readAll(late),
      readAll(resumed),
    ]);
    const all = await readAll(await openSse(url));
    const ids = all.map((e) => e.id);
    expect(all.at(-1)?.event).toBe("result");
    expect(new Set(ids).size).toBe(ids.length);
    expect([resumedFrom, ...earlyA.map((e) => e.id)]).toEqual(ids);
    expect(earlyB.map((e) => e.id)).toEqual(ids);
    expect(lateEvents.map((e) => e.id)).toEqual(ids);
    expect(resumedEvents.map((e) => e.id)).toEqual(ids.slice(1));
  });
});
