// What every SSE stream carries, by the protocol version the client negotiated, read on the wire as
// the SDK clients read it (eventsource-parser): a client on 2025-06-18 or older gets only events whose
// data is a JSON-RPC message, since its SDK JSON-parses every event (an empty priming event made
// Gemini CLI 0.61.0 drop the server); a 2025-11-25 client still gets its priming events and resumes.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { LONG_INLINE_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { modernBody, modernHeaders, TASKS } from "./support/modern";
import { startTask } from "./support/tasks";
import { messageOf, oldSdkProblem, openWire, wireEvents, type WireEvent, type WireStream } from "./support/wire-events";

// A long inline wait: its plain calls (up to 3 s) answer on their own streams (support/server-settings.ts).
const server = sharedServer(LONG_INLINE_VARS);
type Headers_ = Record<string, string>;

/** A session negotiated at `version`, with the headers its client sends afterwards. */
async function session(version: string): Promise<Headers_> {
  const init = await rpc(server.url, {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: `streams-${version}`, version: "1" } },
  });
  const negotiated = (init.body as { result?: { protocolVersion?: string } }).result?.protocolVersion;
  const sessionId = init.headers.get("Mcp-Session-Id");
  if (negotiated !== version || !sessionId) throw new Error(`initialize at ${version}: ${init.text}`);
  const headers = { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": version };
  await rpc(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { headers });
  return headers;
}

const postHeaders = (headers: Headers_) => ({
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  ...headers,
});
const post = (headers: Headers_, body: unknown) =>
  openWire(`${server.url}/mcp`, { method: "POST", headers: postHeaders(headers), body: JSON.stringify(body) });
const get = (headers: Headers_) =>
  openWire(`${server.url}/mcp`, { headers: { Accept: "text/event-stream", ...headers } });
const countdown = (id: string, seconds: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "countdown", arguments: { seconds }, _meta: { progressToken: id } },
});
const carries = (event: WireEvent) => event.data !== "";
const isAnswerTo = (id: string) => (event: WireEvent) => carries(event) && messageOf(event)["id"] === id;
const isUpdate = (event: WireEvent) =>
  carries(event) && messageOf(event)["method"] === "notifications/resources/updated";

/** Every kind of stream a 2025 client can be sent, each read through its end (or its first messages). */
async function everyStream(headers: Headers_): Promise<Record<string, WireEvent[]>> {
  const streams: Record<string, WireStream> = {};

  // The session's GET stream, carrying a subscribed task's updates; dropped, then resumed with Last-Event-ID.
  streams["GET stream"] = await get(headers);
  const watched = await startTask(server.url, "countdown", { seconds: 3 });
  await rpc(
    server.url,
    { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: `task://${watched}` } },
    { headers },
  );
  const update = await streams["GET stream"].until(isUpdate);
  streams["GET stream"].drop();
  streams["resumed GET stream"] = await get({ ...headers, "Last-Event-ID": update?.id ?? "" });
  await streams["resumed GET stream"].until(isUpdate);
  streams["resumed GET stream"].drop();

  // A plain tools/call's own stream: progress, then the response.
  streams["tools/call stream"] = await post(headers, countdown("plain", 2));
  await streams["tools/call stream"].until(isAnswerTo("plain"));

  // A tools/call stream dropped after its first event, resumed with GET + Last-Event-ID.
  const cut = await post(headers, countdown("cut", 3));
  const first = await cut.until((event) => event.id !== undefined);
  cut.drop();
  streams["cut tools/call stream"] = cut;
  streams["resumed tools/call stream"] = await get({ ...headers, "Last-Event-ID": first?.id ?? "" });
  await streams["resumed tools/call stream"].until(isAnswerTo("cut"));

  // tasks/result's stream.
  const taskId = await startTask(server.url, "countdown", { seconds: 1 }, headers);
  streams["tasks/result stream"] = await post(headers, {
    jsonrpc: "2.0",
    id: "result",
    method: "tasks/result",
    params: { taskId },
  });
  await streams["tasks/result stream"].until(isAnswerTo("result"));

  for (const [kind, stream] of Object.entries(streams))
    if (stream.status !== 200) throw new Error(`${kind}: HTTP ${stream.status}`);
  return Object.fromEntries(Object.entries(streams).map(([kind, stream]) => [kind, stream.events]));
}

/** Each event an SDK of the 2025-06-18 era would have reported to its onerror, by stream. */
const problems = (streams: Record<string, WireEvent[]>) =>
  Object.entries(streams).flatMap(([kind, events]) =>
    events
      .map(oldSdkProblem)
      .filter((problem) => problem !== undefined)
      .map((problem) => `${kind}: ${problem}`),
  );

describe("clients of versions without priming events get none, on any stream", () => {
  for (const version of ["2025-06-18", "2025-03-26"]) {
    it(`${version}: every event of every stream (GET, calls, tasks/result, resumed) is JSON-RPC`, async ({
      expect,
    }) => {
      const streams = await everyStream(await session(version));
      expect(problems(streams)).toEqual([]);
      // Each stream carried messages, so the check above had something to check.
      for (const [kind, events] of Object.entries(streams)) expect(events.length, kind).toBeGreaterThan(0);
      expect(streams["resumed tools/call stream"]?.some(isAnswerTo("cut"))).toBe(true);
    });
  }

  it("a stateless request without MCP-Protocol-Version (2025-03-26 by the spec): no priming event", async ({
    expect,
  }) => {
    const stream = await post({}, countdown("stateless", 1));
    await stream.until(isAnswerTo("stateless"));
    expect(problems({ "stateless tools/call": stream.events })).toEqual([]);
    expect(stream.events.some(isAnswerTo("stateless"))).toBe(true);
  });
});

describe("2025-11-25 clients keep their priming events", () => {
  it("GET, tools/call and tasks/result streams open with an id and empty data; everything else is a message", async ({
    expect,
  }) => {
    const streams = await everyStream(await session("2025-11-25"));
    for (const kind of ["GET stream", "tools/call stream", "cut tools/call stream", "tasks/result stream"]) {
      const [opening] = streams[kind] ?? [];
      expect(opening?.data, kind).toBe("");
      expect(opening?.id, kind).toMatch(/^[ts]\./);
    }
    // The cut stream was resumed from its priming id alone, and the resume carried the response.
    expect(streams["resumed tools/call stream"]?.some(isAnswerTo("cut"))).toBe(true);
    const rest = Object.fromEntries(
      Object.entries(streams).map(([kind, events]) => [
        kind,
        events.filter((event, i) => !(i === 0 && event.data === "")),
      ]),
    );
    expect(problems(rest)).toEqual([]);
  });
});

describe("2026-07-28 streams", () => {
  it("a tools/call stream and a subscriptions/listen stream carry only JSON-RPC messages, without ids", async ({
    expect,
  }) => {
    const body = modernBody(
      "tools/call",
      { name: "countdown", arguments: { seconds: 2 } },
      { id: "m", meta: { progressToken: "m" } },
    );
    const call = await openWire(`${server.url}/mcp`, {
      method: "POST",
      headers: modernHeaders(body),
      body: JSON.stringify(body),
    });
    await call.until(isAnswerTo("m"));
    const listenBody = modernBody(
      "subscriptions/listen",
      { notifications: { taskIds: [] } },
      { id: "l", capabilities: TASKS },
    );
    const listen = await openWire(`${server.url}/mcp`, {
      method: "POST",
      headers: modernHeaders(listenBody),
      body: JSON.stringify(listenBody),
    });
    await listen.next();
    listen.drop();
    const streams = { "2026 tools/call": call.events, "2026 subscriptions/listen": listen.events };
    expect(problems(streams)).toEqual([]);
    expect(call.events.length).toBeGreaterThan(1);
    expect(listen.events.length).toBe(1);
    expect([...call.events, ...listen.events].every((event) => event.id === undefined)).toBe(true);
  });
});

/**
 * A fetch for the SDK's Client that makes it negotiate `version` (it always offers its latest) and
 * reads a copy of every SSE response it gets, to check each event as an SDK of that era parsed it.
 */
function pinnedFetch(version: string) {
  const copies: WireStream[] = [];
  const pinned: typeof fetch = async (input, init) => {
    let body = init?.body;
    if (typeof body === "string" && body.includes('"initialize"')) {
      const message = JSON.parse(body) as { method?: string; params?: { protocolVersion?: string } };
      if (message.method === "initialize" && message.params)
        body = JSON.stringify({ ...message, params: { ...message.params, protocolVersion: version } });
    }
    const response = await fetch(input, { ...init, body });
    if (!response.body || !(response.headers.get("Content-Type") ?? "").includes("text/event-stream")) return response;
    const [mine, copy] = response.body.tee();
    const events = wireEvents(new Response(copy, { headers: response.headers }));
    copies.push(events);
    // Read the copy as the client reads its own, until either side drops it.
    void (async () => {
      while (await events.next(600_000).catch(() => undefined));
    })();
    return new Response(mine, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    fetch: pinned,
    copies,
    stop: () => {
      for (const events of copies) events.drop();
    },
  };
}

describe("the SDK's Client pinned to 2025-06-18", () => {
  it("stays connected: GET notifications, a call's progress and result, nothing its SDK's era cannot parse", async ({
    expect,
  }) => {
    const pinned = pinnedFetch("2025-06-18");
    const errors: string[] = [];
    const client = new Client({ name: "pinned-2025-06-18", version: "1" }, { capabilities: {} });
    client.onerror = (error) => errors.push(String(error));
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch: pinned.fetch });
    const progress: number[] = [];
    try {
      const updated = new Promise<void>((resolve) =>
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => resolve()),
      );
      await client.connect(transport);
      expect(transport.protocolVersion).toBe("2025-06-18");
      // The session's GET stream carries a subscribed task's updates.
      const watched = await startTask(server.url, "countdown", { seconds: 3 });
      await client.subscribeResource({ uri: `task://${watched}` });
      await updated;
      const result = await client.callTool({ name: "countdown", arguments: { seconds: 2 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      expect(result.content).toEqual([{ type: "text", text: "Countdown of 2 s finished." }]);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
      pinned.stop();
    }
    expect(progress).toEqual([1, 2]);
    // The GET stream and the call's stream at least, each read through the parser of the SDK's 2025-06-18 era.
    expect(pinned.copies.length).toBeGreaterThanOrEqual(2);
    expect(
      pinned.copies
        .flatMap((events) => events.events)
        .map(oldSdkProblem)
        .filter((problem) => problem !== undefined),
    ).toEqual([]);
  });
});
