// Both adopter lanes under a hostile caller and an adopter's mistakes (issue 51), on the dual-lane
// fixture (test/fixtures/adopter-dual: bearer principals, createMcpHandler's Host/Origin options
// tightened and given to durableTasks too): a principal() that throws or answers a number or an
// object, a Base64 Mcp-Name, bodies chunked or framed, nested past 64 levels or past 1 MiB, a
// foreign Host or Origin. Each case once, plainly; then a seeded fuzz of them all (FUZZ_SEED
// replays one): no 5xx, no dropped connection, no internal exception named, and alice's task list
// holds only what alice created.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { adopterRequest, json, seededDice, sentinel } from "./support/fuzz-adopter";
import type { FuzzRequest } from "./support/fuzz-input";
import { modernBody, modernHeaders, startTask, TASKS } from "./support/modern";
import { rawRequest, type RawReply } from "./support/raw-http";

const SEED = Number(process.env["FUZZ_SEED"] ?? 20261206);
const COUNT = 240;
const ALICE = "alice-token";
const server = ownServer(async () => ({ config: await adopterConfig("test/fixtures/adopter-dual") }));
/** What an answer must never show: a runtime exception, a stack frame, an HTML error page. */
const INTERNAL =
  /call stack|RangeError|TypeError|ReferenceError|DataCloneError|SyntaxError|Internal error|\bat [\w.]+ \(|<html/i;

let session = "";
let client: Client | undefined;
const taskIds: string[] = ["0123456789abcdef0123456789abcdef"];

beforeAll(async () => {
  client = new Client({ name: "adopt-fuzz", version: "1" }, { capabilities: { tasks: { list: {}, cancel: {} } } });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp-legacy`), {
    requestInit: { headers: { Authorization: `Bearer ${ALICE}` } },
  });
  await client.connect(transport);
  session = transport.sessionId ?? "";
  taskIds.push(await startTask(server.url, "countdown", { seconds: 60 }, { token: ALICE }));
});

afterAll(async () => {
  await client?.close();
});

const send = (r: FuzzRequest, fresh = false): Promise<RawReply> =>
  rawRequest(`${server.url}${r.path}`, {
    method: r.method,
    headers: r.headers,
    body: r.body,
    timeoutMs: 60_000,
    fresh,
  });

/** A 2026-07-28 durable call of countdown as alice, with `headers` over the conforming ones. */
function durableCall(headers: Record<string, string> = {}, args = '{"seconds":1}'): FuzzRequest {
  const message = modernBody("tools/call", { name: "countdown", arguments: {} }, { capabilities: TASKS });
  const body = JSON.stringify(message).replace('"arguments":{}', `"arguments":${args}`);
  const base = { ...modernHeaders(message, { token: ALICE }), "Content-Length": String(Buffer.byteLength(body)) };
  return { method: "POST", path: "/mcp", headers: { ...base, ...headers }, body };
}

/** A 2025-11-25 task-augmented call of countdown on alice's McpAgent session. */
function legacyCall(headers: Record<string, string> = {}, args = '{"seconds":1}'): FuzzRequest {
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"countdown","arguments":${args},"task":{"ttl":60000}}}`;
  const base = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
    "Mcp-Session-Id": session,
    Authorization: `Bearer ${ALICE}`,
  };
  return { method: "POST", path: "/mcp-legacy", headers: { ...base, ...headers }, body };
}

const aliceTasks = async () =>
  JSON.parse((await send({ method: "GET", path: "/tasks", headers: { Authorization: `Bearer ${ALICE}` } })).text);

describe("the adopter's principal()", () => {
  it("throwing: 401 on every lane, JSON-RPC on the MCP endpoints, the cause not sent", async () => {
    const throwing = { Authorization: "Bearer throw-token" };
    for (const request of [
      durableCall(throwing),
      legacyCall(throwing),
      { method: "GET", path: "/tasks", headers: throwing },
    ]) {
      const reply = await send(request);
      expect(reply.status, request.path).toBe(401);
      expect(reply.text).not.toMatch(INTERNAL);
      expect(reply.text).not.toContain("userId");
      if (request.path !== "/tasks")
        expect(json(reply)).toMatchObject({ jsonrpc: "2.0", error: { data: { error: "unauthenticated" } } });
    }
  });

  it("answering a number or an object: 403 naming the option, and no task stored", async () => {
    for (const token of ["number-token", "object-token"]) {
      for (const request of [
        durableCall({ Authorization: `Bearer ${token}` }),
        legacyCall({ Authorization: `Bearer ${token}` }),
      ]) {
        const reply = await send(request);
        expect(reply.status).toBe(403);
        expect(reply.text).toContain("durableTasks({ principal })");
      }
    }
  });
});

describe("the adopter's Host and Origin options hold for task requests", () => {
  it("Host: evil.example and a foreign Origin create no task, on either lane", async () => {
    const before = await aliceTasks();
    const foreign: Record<string, string>[] = [{ Host: "evil.example" }, { Origin: "https://evil.example" }];
    for (const headers of foreign) {
      expect((await send(durableCall(headers))).status).toBe(403);
      expect((await send(legacyCall(headers))).status).toBe(403);
    }
    expect(await aliceTasks()).toEqual(before);
  });
});

describe("the task-link probe header (issue 49, point 4), sent by anyone", () => {
  it("answers GET of the view 204 with nothing, the same for a task and no task; the guards and other methods are untouched", async () => {
    const probe = { "mcp-task-worker-probe": "1" };
    const answers = [];
    for (const path of ["/tasks", `/tasks/${taskIds[1]}`, `/tasks/${taskIds[0]}`]) {
      const reply = await send({ method: "GET", path, headers: probe });
      answers.push({ status: reply.status, text: reply.text, marked: reply.headers["mcp-task-worker-probe"] });
    }
    expect(answers).toEqual(Array.from({ length: 3 }, () => ({ status: 204, text: "", marked: "served" })));
    expect((await send({ method: "GET", path: "/tasks", headers: { ...probe, Host: "evil.example" } })).status).toBe(
      403,
    );
    const cancel = await send({ method: "POST", path: `/tasks/${taskIds[1]}/cancel`, headers: probe });
    expect(cancel.status).toBe(401);
    expect((await aliceTasks()).tasks).toContainEqual(
      expect.objectContaining({ taskId: taskIds[1], status: "working" }),
    );
  });
});

describe("bodies on the McpAgent lane, as on the other", () => {
  it("a chunked durable call (no Content-Length) creates its task like a framed one", async () => {
    const reply = await send(legacyCall());
    expect(reply.status).toBe(200);
    expect(json(reply)).toMatchObject({ result: { task: { taskId: expect.any(String), status: "working" } } });
  });

  it("arguments nested 65, 200 or 20,000 deep: a JSON-RPC error, no task; 2 MB: 413", async () => {
    for (const depth of [65, 200, 20_000]) {
      const reply = await send(legacyCall({}, `{"seconds":1,"x":${"[".repeat(depth)}${"]".repeat(depth)}}`));
      expect(reply.status).toBe(400);
      expect(json(reply)).toMatchObject({
        error: { code: -32600, message: expect.stringContaining("nested more than 64") },
      });
    }
    const big = await send(legacyCall({}, `{"seconds":1,"x":"${"a".repeat(2 * 1024 * 1024)}"}`));
    expect(big.status).toBe(413);
  });
});

describe("a Base64 Mcp-Name", () => {
  it("routes a durable call to the engine (a task for a client with the extension) and task:// reads to it", async () => {
    const call = await send(durableCall({ "Mcp-Name": sentinel("countdown") }));
    expect(json(call)).toMatchObject({ result: { resultType: "task" } });
    const taskId = taskIds[1] ?? "";
    const message = modernBody("resources/read", { uri: `task://${taskId}` });
    const headers = { ...modernHeaders(message, { token: ALICE }), "Mcp-Name": sentinel(`task://${taskId}`) };
    const read = await send({ method: "POST", path: "/mcp", headers, body: JSON.stringify(message) });
    expect(json(read)).not.toMatchObject({ error: { code: -32601 } });
    expect(json(read)).toMatchObject({ result: { contents: expect.any(Array) } });
  });

  it("that disagrees with the body is still refused (-32020), whichever way the header is spelled", async () => {
    // The header names the durable tool, the body the adopter's echo: routed by the header, refused by the engine.
    const message = modernBody("tools/call", { name: "echo", arguments: { text: "hi" } }, { capabilities: TASKS });
    for (const name of ["countdown", sentinel("countdown")]) {
      const headers = { ...modernHeaders(message, { token: ALICE }), "Mcp-Name": name };
      const reply = await send({ method: "POST", path: "/mcp", headers, body: JSON.stringify(message) });
      expect(reply.status).toBe(400);
      expect(json(reply)).toMatchObject({ error: { code: -32020 } });
    }
  });
});

const TaskListSchema = z.object({ tasks: z.array(z.object({ taskId: z.string() }).loose()) }).loose();

describe(`fuzz of both lanes (seed ${SEED})`, () => {
  it(`answers ${COUNT} hostile requests with no 5xx`, { timeout: 300_000 }, async () => {
    const dice = seededDice(SEED);
    const requests = Array.from({ length: COUNT }, () => adopterRequest(dice, session, taskIds));
    const histogram = new Map<string, number>();
    const failures: string[] = [];
    const dropped: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let index = next++; index < requests.length; index = next++) {
          const r = requests[index];
          if (!r) break;
          const auth = (r.headers["Authorization"] ?? "no token").slice(0, 20);
          const size = r.body === undefined ? "no body" : `${r.body.length} bytes`;
          const label = `#${index} ${r.method} ${r.path} (${Object.keys(r.headers).join(",")}; ${auth}; ${size})`;
          try {
            const reply = await send(r);
            histogram.set(String(reply.status), (histogram.get(String(reply.status)) ?? 0) + 1);
            if (reply.status >= 500 || INTERNAL.test(reply.text))
              failures.push(`${label} → ${reply.status} ${reply.text.slice(0, 200)}`);
          } catch (error) {
            // A kept-alive socket the server closed as the client reused it drops the request before
            // the server saw it (Node's keep-alive race): sent again on a connection of its own, it
            // must be answered. A drop that repeats is the server's, and fails the test.
            dropped.push(`${label} → ${String(error)}`);
            const again = await send(r, true).then(
              (reply) => (reply.status >= 500 ? String(reply.status) : undefined),
              (retry: unknown) => String(retry),
            );
            if (again !== undefined) failures.push(`${label} → ${String(error)}, again ${again}`);
          }
        }
      }),
    );
    const sorted = [...histogram.entries()].sort(([x], [y]) => x.localeCompare(y));
    console.log(
      `adopter fuzz seed ${SEED}: ${COUNT} requests, ${sorted.map(([s, n]) => `${s}×${n}`).join(", ")}; ` +
        `dropped and sent again: ${dropped.length === 0 ? "none" : dropped.join("; ")}`,
    );
    expect(failures).toEqual([]);
    // The task alice started before is still hers and intact; nobody else's request reached it.
    const { tasks } = TaskListSchema.parse(await aliceTasks());
    expect(tasks.map((task) => task.taskId)).toContain(taskIds[1]);
  });
});
