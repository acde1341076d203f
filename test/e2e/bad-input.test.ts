/**
 * Bad input on the real runtime: every malformed request gets a clear JSON-RPC error or
 * a 4xx, never a 500 or a crash, and a task created before it all stays exactly as it was.
 */
import { beforeAll, describe, it } from "vitest";
import { ownServer } from "./support/dev-server";
import { rpc, type RpcReply } from "./support/mcp";

let earlier: { taskId: string; doc: unknown; events: string };
const MAX_BODY_BYTES = 4096;
// It reads the server's output, so the server is its own.
const server = ownServer({ vars: { MAX_BODY_BYTES: String(MAX_BODY_BYTES) } });

async function taskState(taskId: string) {
  const doc = await (await fetch(`${server.url}/tasks/${taskId}`)).json();
  const events = await (await fetch(`${server.url}/tasks/${taskId}/events`)).text();
  return { doc, events };
}

beforeAll(async () => {
  const created = await rpc(server.url, {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "countdown", arguments: { seconds: 1 }, task: { ttl: 600_000 } },
  });
  const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
  await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } });
  earlier = { taskId, ...(await taskState(taskId)) };
});

function errorOf(reply: RpcReply): { code: number; message: string } {
  if (reply.status >= 500) throw new Error(`HTTP ${reply.status}: ${reply.text}`);
  const body = Array.isArray(reply.body) ? reply.body[reply.body.length - 1] : reply.body;
  const error = (body as { error?: { code: number; message: string } } | undefined)?.error;
  if (!error) throw new Error(`expected a JSON-RPC error, got HTTP ${reply.status}: ${reply.text.slice(0, 300)}`);
  return error;
}

const call = (params: unknown, method = "tools/call") => rpc(server.url, { jsonrpc: "2.0", id: 7, method, params });

describe("the HTTP envelope", () => {
  it("malformed JSON is a 400 parse error", async ({ expect }) => {
    for (const body of ["{", '{"jsonrpc": "2.0", ', "not json", "\u0000"]) {
      const reply = await rpc(server.url, body, { raw: true });
      expect(reply.status).toBe(400);
      expect(errorOf(reply)).toMatchObject({ code: -32700 });
    }
  });

  it("JSON that is not JSON-RPC 2.0 is a 400 invalid request", async ({ expect }) => {
    const shapes: unknown[] = [
      {},
      [],
      42,
      "tools/list",
      null,
      { jsonrpc: "1.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: {}, method: "ping" },
      { jsonrpc: "2.0", method: 5 },
      Array.from({ length: 40 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" })),
    ];
    for (const body of shapes) {
      const reply = await rpc(server.url, body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorOf(reply)).toMatchObject({ code: -32600 });
    }
  });

  it("a batch with repeated ids, or initialize inside a batch, is refused", async ({ expect }) => {
    const repeated = await rpc(server.url, [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 1, method: "ping" },
    ]);
    expect(repeated.status).toBe(400);
    expect(errorOf(repeated).message).toMatch(/unique/);
    const init = await rpc(server.url, [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    expect(init.status).toBe(400);
  });

  it("oversized bodies are a 413, with or without Content-Length", async ({ expect }) => {
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "x".repeat(MAX_BODY_BYTES) } },
    });
    const declared = await rpc(server.url, big, { raw: true });
    expect(declared.status).toBe(413);
    expect(errorOf(declared).message).toMatch(/larger than 4096 bytes/);
    const bytes = new TextEncoder().encode(big);
    const streamed = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.slice(i, i + 1000));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await streamed.body?.cancel();
  });

  it("wrong content types, Accept headers and protocol versions are 4xx with a JSON-RPC error", async ({ expect }) => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const cases: [Record<string, string>, number][] = [
      [{ "Content-Type": "text/plain" }, 415],
      [{ "Content-Type": "application/x-www-form-urlencoded" }, 415],
      [{ Accept: "text/html" }, 406],
      [{ "MCP-Protocol-Version": "1999-01-01" }, 400],
    ];
    for (const [headers, status] of cases) {
      const reply = await rpc(server.url, ping, { headers });
      expect(reply.status, JSON.stringify(headers)).toBe(status);
      expect(errorOf(reply).code).toBe(-32600);
    }
  });

  it("a body that is not UTF-8 is a 400", async ({ expect }) => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(response.status).toBe(400);
  });
});

describe("JSON-RPC requests", () => {
  it("unknown methods are -32601", async ({ expect }) => {
    expect(errorOf(await call({}, "tasks/explode")).code).toBe(-32601);
  });

  it("unknown tools are -32602 and say how to find the right name", async ({ expect }) => {
    const error = errorOf(await call({ name: "rm_rf", arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/Unknown tool "rm_rf".*tools\/list/);
  });

  it("invalid tool arguments are -32602 naming the field, with or without params.task", async ({ expect }) => {
    const bad: [string, unknown, RegExp][] = [
      ["countdown", { seconds: 0 }, /seconds/],
      ["countdown", { seconds: 86_401 }, /seconds/],
      ["countdown", { seconds: 1.5 }, /seconds/],
      ["countdown", { seconds: "10" }, /seconds/],
      ["countdown", {}, /seconds/],
      ["countdown", "ten", /./],
      ["batch_process", { items: 1001, secondsPerItem: 0 }, /items/],
      ["batch_process", { items: 2, secondsPerItem: -1 }, /secondsPerItem/],
      ["echo", { text: 42 }, /text/],
    ];
    for (const [name, args, field] of bad) {
      for (const task of [undefined, {}]) {
        const error = errorOf(await call({ name, arguments: args, ...(task && { task }) }));
        expect(error.code, `${name} ${JSON.stringify(args)}`).toBe(-32602);
        expect(error.message).toMatch(field);
      }
    }
  });

  it("malformed params are -32602", async ({ expect }) => {
    const cases: [string, unknown][] = [
      ["tools/call", { arguments: { seconds: 1 } }],
      ["tools/call", { name: "countdown", arguments: { seconds: 1 }, task: { ttl: "forever" } }],
      ["tools/call", { name: "countdown", arguments: { seconds: 1 }, _meta: { "mcp-task-worker/idempotency-key": 5 } }],
      ["tasks/get", { taskId: 5 }],
      ["tasks/get", {}],
      ["tasks/result", { taskId: "../../etc/passwd" }],
      ["tasks/cancel", { taskId: "0".repeat(1000) }],
      ["resources/read", { uri: "file:///etc/passwd" }],
      ["resources/read", { uri: "task://zzz" }],
    ];
    for (const [method, params] of cases) {
      const error = errorOf(await call(params, method));
      expect(error.code, `${method} ${JSON.stringify(params).slice(0, 80)}`).toBe(-32602);
    }
    // A progress token that is neither string nor number breaks JSON-RPC request _meta itself.
    const token = await call({
      name: "countdown",
      arguments: { seconds: 1 },
      _meta: { progressToken: { nested: true } },
    });
    expect(token.status).toBe(400);
    expect(errorOf(token).code).toBe(-32600);
  });

  it("bad cursors are -32602 for tasks/list and resources/list", async ({ expect }) => {
    for (const cursor of ["garbage!", "", "x".repeat(500), Buffer.from("1:nothex").toString("base64")]) {
      for (const method of ["tasks/list", "resources/list"]) {
        const error = errorOf(await call({ cursor }, method));
        expect(error.code, `${method} ${cursor.slice(0, 20)}`).toBe(-32602);
        expect(error.message).toMatch(/cursor/i);
      }
    }
    expect(errorOf(await call({ cursor: 12 }, "tasks/list")).code).toBe(-32602);
  });

  it("task augmentation of a tool that forbids tasks is refused clearly", async ({ expect }) => {
    const error = errorOf(await call({ name: "echo", arguments: { text: "x" }, task: {} }));
    expect(error.message).toMatch(/does not run as a task/);
  });

  it("bad task ids on the HTTP view are 404, never 500", async ({ expect }) => {
    for (const id of ["x", "0".repeat(33), "%00", "..%2F..%2Fetc", "Z".repeat(32)]) {
      for (const suffix of ["", "/events"]) {
        const response = await fetch(`${server.url}/tasks/${id}${suffix}`);
        expect(response.status, `${id}${suffix}`).toBe(404);
        await response.body?.cancel();
      }
    }
    const badResume = await fetch(`${server.url}/tasks/${earlier.taskId}/events`, {
      headers: { "Last-Event-ID": "garbage" },
    });
    expect(badResume.status).toBe(400);
  });
});

describe("stored tasks", () => {
  it("an earlier task is unchanged after all of the above", async ({ expect }) => {
    const now = await taskState(earlier.taskId);
    expect(now.doc).toEqual(earlier.doc);
    expect(now.events).toEqual(earlier.events);
    expect(now.doc).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "Countdown of 1 s finished." }] },
    });
  });

  it("the server is still healthy and no request ended in a 500", async ({ expect }) => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(server.logs()).not.toMatch(/unhandled error/);
  });
});
