// A GET /mcp reconnect whose Last-Event-ID its stream cannot replay (a POST stream's one-off id, an id
// past the session's log, another session's id) gets a fresh GET stream of the caller's own session,
// not an error (Gemini CLI logged the 400 it used to get as an MCP error), and never anything of
// another session or principal. Raw HTTP, read with eventsource-parser as the SDK clients read it.
import { describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { ONE_SECOND_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { startTask } from "./support/tasks";
import { messageOf, openWire, type WireEvent, type WireStream } from "./support/wire-events";

// A 1 s inline wait (support/server-settings.ts), shared with check-back and task-card.
const server = sharedServer(ONE_SECOND_VARS);
const alice = { Authorization: "Bearer alice-token" };
const bob = { Authorization: "Bearer bob-token" };
type Headers_ = Record<string, string>;

/** A session of `auth`'s principal at `version`: the headers its requests carry, and its id. */
async function session(auth: Headers_, version = "2025-11-25"): Promise<{ headers: Headers_; id: string }> {
  const init = await rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "reconnect", version: "1" } },
    },
    { headers: auth },
  );
  const id = init.headers.get("Mcp-Session-Id");
  if (!id) throw new Error(`no session: ${init.text}`);
  const headers = { ...auth, "Mcp-Session-Id": id, "MCP-Protocol-Version": version };
  await rpc(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { headers });
  return { headers, id };
}

const getStream = (headers: Headers_, lastEventId?: string): Promise<WireStream> =>
  openWire(`${server.url}/mcp`, {
    headers: {
      Accept: "text/event-stream",
      ...headers,
      ...(lastEventId !== undefined && { "Last-Event-ID": lastEventId }),
    },
  });

/**
 * Starts a countdown of the session's principal and subscribes the session to it: its updates go to
 * that session's GET stream.
 */
async function watch(headers: Headers_, seconds = 2): Promise<string> {
  const auth = { Authorization: headers["Authorization"] ?? "" };
  const taskId = await startTask(server.url, "countdown", { seconds }, auth);
  const reply = await rpc(
    server.url,
    { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: `task://${taskId}` } },
    { headers },
  );
  if (reply.status !== 200) throw new Error(`subscribe: ${reply.text}`);
  return taskId;
}

const uriOf = (event: WireEvent): unknown =>
  event.data === "" ? undefined : (messageOf(event)["params"] as { uri?: unknown } | undefined)?.uri;
const updateOf = (taskId: string) => (event: WireEvent) => uriOf(event) === `task://${taskId}`;

/** A real one-off event id: the response of a quick tool's call on a POST stream (`x.<hex>.<n>`). */
async function oneOffId(headers: Headers_): Promise<string> {
  const call = await openWire(`${server.url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: "echo",
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" } },
    }),
  });
  const answer = await call.until((event) => event.data !== "" && messageOf(event)["id"] === "echo");
  if (!answer?.id) throw new Error(`no event id on the answer: ${JSON.stringify(call.events)}`);
  return answer.id;
}

describe("a GET reconnect whose Last-Event-ID its stream cannot replay", () => {
  for (const version of ["2025-11-25", "2025-06-18"]) {
    it(`${version}: a POST stream's one-off id gets the session's own GET stream, fresh`, async ({ expect }) => {
      const mine = await session(alice, version);
      const id = await oneOffId(mine.headers);
      expect(id).toMatch(/^x\.[0-9a-f]{32}\.\d+$/);
      const stream = await getStream(mine.headers, id);
      expect(stream.status).toBe(200);
      if (version === "2025-11-25") {
        const priming = await stream.next();
        expect(priming).toMatchObject({ data: "" });
        expect(priming?.id).toMatch(new RegExp(`^s\\.${mine.id}\\.\\d+$`));
      }
      const taskId = await watch(mine.headers);
      expect(await stream.until(updateOf(taskId))).toBeDefined();
      stream.drop();
    });
  }

  it("while the session's GET stream has a live reader: 405 for an unreplayable id, 409 without one", async ({
    expect,
  }) => {
    // Gemini CLI 0.61.0's SDK sends such a GET after every POST stream with an id; 405 it takes quietly.
    const mine = await session(alice, "2025-06-18");
    const open = await getStream(mine.headers);
    expect(open.status).toBe(200);
    const reconnect = await getStream(mine.headers, await oneOffId(mine.headers));
    expect(reconnect.status).toBe(405);
    const plain = await getStream(mine.headers);
    expect(plain.status).toBe(409);
    // The open reader keeps its stream.
    const taskId = await watch(mine.headers);
    expect(await open.until(updateOf(taskId))).toBeDefined();
    for (const stream of [reconnect, plain, open]) stream.drop();
  });

  it("an id past the session's log gets a fresh stream of that session", async ({ expect }) => {
    const mine = await session(alice);
    const stream = await getStream(mine.headers, `s.${mine.id}.999999`);
    expect(stream.status).toBe(200);
    expect((await stream.next())?.id).toBe(`s.${mine.id}.0`);
    const taskId = await watch(mine.headers);
    expect(await stream.until(updateOf(taskId))).toBeDefined();
    stream.drop();
  });

  it("another session's id: the caller's session fresh, nothing of the other's, whose reader keeps its stream", async ({
    expect,
  }) => {
    const [mine, theirs] = [await session(alice), await session(alice)];
    const theirStream = await getStream(theirs.headers);
    const before = await watch(theirs.headers);
    const seen = await theirStream.until(updateOf(before));
    const stream = await getStream(mine.headers, seen?.id ?? "");
    expect(stream.status).toBe(200);
    // Their stream is not taken over: a task watched after the reconnect still reaches their reader.
    const after = await watch(theirs.headers);
    expect(await theirStream.until(updateOf(after))).toBeDefined();
    const own = await watch(mine.headers);
    expect(await stream.until(updateOf(own))).toBeDefined();
    expect(stream.events.map(uriOf).filter((uri) => uri !== undefined && uri !== `task://${own}`)).toEqual([]);
    expect(stream.events.every((event) => event.id?.startsWith(`s.${mine.id}.`))).toBe(true);
    stream.drop();
    theirStream.drop();
  });

  it("another principal's id: bob's own stream, nothing of alice's; without a session, an unknown id's 404", async ({
    expect,
  }) => {
    const hers = await session(alice);
    const herStream = await getStream(hers.headers);
    const first = await watch(hers.headers);
    const seen = await herStream.until(updateOf(first));
    const herId = seen?.id ?? "";
    expect(herId).toMatch(new RegExp(`^s\\.${hers.id}\\.\\d+$`));

    const his = await session(bob);
    const stream = await getStream(his.headers, herId);
    expect(stream.status).toBe(200);
    const second = await watch(hers.headers);
    const own = await watch(his.headers);
    expect(await stream.until(updateOf(own))).toBeDefined();
    expect(await herStream.until(updateOf(second))).toBeDefined();
    expect(stream.events.map(uriOf).filter((uri) => uri !== undefined && uri !== `task://${own}`)).toEqual([]);
    expect(stream.events.every((event) => event.id?.startsWith(`s.${his.id}.`))).toBe(true);
    stream.drop();
    herStream.drop();

    // Without Mcp-Session-Id the id names the session to resume, and alice's is no session of bob's.
    const bare = (id: string) =>
      fetch(`${server.url}/mcp`, {
        headers: { ...bob, Accept: "text/event-stream", "MCP-Protocol-Version": "2025-11-25", "Last-Event-ID": id },
      });
    const foreign = await bare(herId);
    const unknown = await bare(`s.${"A".repeat(hers.id.length)}.${herId.split(".").at(-1) ?? "1"}`);
    expect(foreign.status).toBe(404);
    expect({ status: foreign.status, body: await foreign.text() }).toEqual({
      status: unknown.status,
      body: await unknown.text(),
    });
  });
});
