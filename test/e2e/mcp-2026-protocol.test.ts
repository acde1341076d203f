/**
 * MCP 2026-07-28 on the same /mcp as 2025-11-25, raw HTTP against wrangler dev: the era chosen per
 * request, server/discover, the stateless envelope (resultType, serverInfo, caching hints), the
 * standard headers and the 2026 error codes, and 2025 traffic untouched beside it.
 */
import { describe, expect, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import {
  MODERN,
  TASKS,
  errorOf,
  headerValue,
  modern,
  modernBody,
  modernHeaders,
  post,
  resultOf,
} from "./support/modern";

const server = sharedServer();

const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "mcp-task-worker", version: expect.any(String) } };
const UNKNOWN_TASK = "0123456789abcdef0123456789abcdef";

describe("the era is chosen per request on one endpoint", () => {
  it("serves a request whose _meta claims 2026-07-28 as modern, with resultType and serverInfo", async ({ expect }) => {
    const reply = await modern(server.url, "tools/list");
    expect(reply.status).toBe(200);
    expect(resultOf(reply)).toMatchObject({ resultType: "complete", _meta: SERVER_INFO });
  });

  it("keeps initialize and 2025 sessions working beside it, GET stream included", async ({ expect }) => {
    const init = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    expect(init.body).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
    const session = init.headers.get("Mcp-Session-Id");
    expect(session).toEqual(expect.any(String));
    const listed = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { headers: { "Mcp-Session-Id": session ?? "", "MCP-Protocol-Version": "2025-11-25" } },
    );
    expect(listed.body).toMatchObject({ result: { tools: expect.any(Array) } });
    expect((listed.body as { result: Record<string, unknown> }).result).not.toHaveProperty("resultType");
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/mcp`, {
      headers: { Accept: "text/event-stream", "Mcp-Session-Id": session ?? "", "MCP-Protocol-Version": "2025-11-25" },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("Content-Type")).toContain("text/event-stream");
    controller.abort();
  });

  it("ignores Mcp-Session-Id and Last-Event-ID on a 2026 request and mints no session", async ({ expect }) => {
    const reply = await modern(
      server.url,
      "server/discover",
      {},
      { headers: { "Mcp-Session-Id": "not-a-session", "Last-Event-ID": "t.garbage" } },
    );
    expect(reply.status).toBe(200);
    expect(resultOf(reply)).toHaveProperty("supportedVersions");
    expect(reply.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it("answers GET and DELETE /mcp with the 2026 header with 405", async ({ expect }) => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/mcp`, {
        method,
        headers: { Accept: "text/event-stream", "MCP-Protocol-Version": MODERN, "Mcp-Session-Id": "x" },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toContain("POST");
    }
  });

  it("serves a 2025 version named in _meta the 2025 way (no 2026 errors, no resultType)", async ({ expect }) => {
    const reply = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2025-11-25" } },
      },
      { headers: { "MCP-Protocol-Version": "2025-11-25" } },
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ result: { tools: expect.any(Array) } });
    expect((reply.body as { result: Record<string, unknown> }).result).not.toHaveProperty("resultType");
  });

  it("gives a 2025 request the 2025 errors, never the 2026 ones", async ({ expect }) => {
    const unsupported = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { headers: { "MCP-Protocol-Version": "1999-01-01" } },
    );
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toMatchObject({ error: { code: -32600 } });
    // 2026 header rules mean nothing to a 2025 request.
    const noHeaders = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } },
      { headers: { Accept: "application/json", "Mcp-Method": "tools/list", "Mcp-Name": "other" } },
    );
    expect(noHeaders.body).toMatchObject({ result: { content: [{ type: "text", text: "x" }] } });
  });
});

describe("server/discover", () => {
  it("lists the supported versions, capabilities with the Tasks extension, instructions, caching hints and serverInfo", async ({
    expect,
  }) => {
    const result = resultOf(await modern(server.url, "server/discover"));
    expect(result["supportedVersions"]).toEqual(
      expect.arrayContaining([MODERN, "2025-11-25", "2025-06-18", "2025-03-26"]),
    );
    expect(result["capabilities"]).toMatchObject({
      tools: {},
      resources: { subscribe: true },
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    expect(result["capabilities"]).not.toHaveProperty("tasks");
    expect(result["instructions"]).toEqual(expect.stringContaining("task_result"));
    expect(result).toMatchObject({
      resultType: "complete",
      ttlMs: expect.any(Number),
      cacheScope: "public",
      _meta: SERVER_INFO,
    });
  });
});

describe("the stateless envelope", () => {
  it("puts ttlMs and cacheScope on tools/list, resources/templates/list and resources/read", async ({ expect }) => {
    expect(resultOf(await modern(server.url, "tools/list"))).toMatchObject({
      ttlMs: expect.any(Number),
      cacheScope: "public",
    });
    expect(resultOf(await modern(server.url, "resources/templates/list"))).toMatchObject({
      ttlMs: expect.any(Number),
      cacheScope: "public",
      resourceTemplates: [{ uriTemplate: "task://{taskId}" }],
    });
    const created = resultOf(
      await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 1 } }, { capabilities: TASKS }),
    );
    const read = resultOf(await modern(server.url, "resources/read", { uri: `task://${String(created["taskId"])}` }));
    expect(read).toMatchObject({
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      contents: [{ mimeType: "application/json" }],
    });
  });

  it("serves the task card its tool listings name, as an MCP App resource", async ({ expect }) => {
    const tools = resultOf(await modern(server.url, "tools/list"))["tools"] as {
      name: string;
      _meta?: { ui?: { resourceUri?: string } };
    }[];
    const uri = tools.find((tool) => tool.name === "countdown")?._meta?.ui?.resourceUri;
    expect(uri).toMatch(/^ui:\/\//);
    const listed = resultOf(await modern(server.url, "resources/list"))["resources"] as { uri: string }[];
    expect(listed[0]?.uri).toBe(uri);
    const read = resultOf(await modern(server.url, "resources/read", { uri }));
    expect(read).toMatchObject({
      resultType: "complete",
      cacheScope: "public",
      contents: [{ uri, mimeType: "text/html;profile=mcp-app", _meta: { ui: { csp: expect.any(Object) } } }],
    });
    expect((read["contents"] as { text: string }[])[0]?.text).toMatch(/^<!doctype html>/i);
  });

  it("lists tools in the same order every time", async ({ expect }) => {
    const names = async () =>
      (resultOf(await modern(server.url, "tools/list"))["tools"] as { name: string }[]).map((tool) => tool.name);
    const first = await names();
    expect(first).toEqual(await names());
    expect(first).toEqual(expect.arrayContaining(["countdown", "echo", "build_report", "task_status"]));
  });

  it("takes the client's capabilities from each request alone", async ({ expect }) => {
    const withTasks = resultOf(
      await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 1 } }, { capabilities: TASKS }),
    );
    expect(withTasks["resultType"]).toBe("task");
    const without = resultOf(await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 1 } }));
    expect(without["resultType"]).toBe("complete");
    expect(without).not.toHaveProperty("taskId");
  });

  it("serves a request without clientInfo", async ({ expect }) => {
    const reply = await modern(server.url, "tools/list", {}, { meta: { "io.modelcontextprotocol/clientInfo": null } });
    expect(reply.status).toBe(200);
  });

  it("refuses a request without clientCapabilities or _meta with -32602 on HTTP 400", async ({ expect }) => {
    const noCaps = await modern(
      server.url,
      "tools/list",
      {},
      { meta: { "io.modelcontextprotocol/clientCapabilities": null } },
    );
    expect(noCaps.status).toBe(400);
    expect(errorOf(noCaps)).toMatchObject({ code: -32602, message: expect.stringContaining("clientCapabilities") });
    const body = { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} };
    const noMeta = await post(server.url, body, modernHeaders(body));
    expect(noMeta.status).toBe(400);
    expect(errorOf(noMeta).code).toBe(-32602);
  });

  it("refuses a malformed envelope value or log level with -32602 on HTTP 400", async ({ expect }) => {
    for (const meta of [
      { "io.modelcontextprotocol/clientCapabilities": "all" },
      { "io.modelcontextprotocol/logLevel": "loud" },
      { "io.modelcontextprotocol/clientInfo": { name: 7 } },
      { "io.modelcontextprotocol/protocolVersion": 20260728 },
    ]) {
      const reply = await modern(server.url, "tools/list", {}, { meta });
      expect(reply.status).toBe(400);
      expect(errorOf(reply).code).toBe(-32602);
    }
  });
});

describe("standard headers", () => {
  const expectMismatch = (reply: Awaited<ReturnType<typeof modern>>) => {
    if (reply.status !== 400 || errorOf(reply).code !== -32020)
      throw new Error(`expected HTTP 400 -32020, got ${reply.status} ${reply.text.slice(0, 300)}`);
  };

  it("requires Mcp-Method on every request and its value to match the method, case-sensitively", async () => {
    expectMismatch(await modern(server.url, "tools/list", {}, { headers: { "Mcp-Method": null } }));
    expectMismatch(await modern(server.url, "tools/list", {}, { headers: { "Mcp-Method": "tools/call" } }));
    expectMismatch(await modern(server.url, "tools/list", {}, { headers: { "Mcp-Method": "Tools/List" } }));
  });

  it("accepts header names in any case and whitespace around values", async ({ expect }) => {
    const body = modernBody("tools/call", { name: "echo", arguments: { text: "hi" } });
    const reply = await post(server.url, body, {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": ` ${MODERN} `,
      "MCP-METHOD": "  tools/call ",
      "mcp-name": " echo ",
    });
    expect(reply.status).toBe(200);
    expect(resultOf(reply)).toMatchObject({ content: [{ text: "hi" }] });
  });

  it("requires MCP-Protocol-Version and refuses one that disagrees with the body", async () => {
    expectMismatch(await modern(server.url, "tools/list", {}, { headers: { "MCP-Protocol-Version": null } }));
    expectMismatch(await modern(server.url, "tools/list", {}, { headers: { "MCP-Protocol-Version": "2025-11-25" } }));
  });

  it("requires Mcp-Name on tools/call, resources/read and tasks/*, matching the body", async () => {
    expectMismatch(
      await modern(
        server.url,
        "tools/call",
        { name: "echo", arguments: { text: "x" } },
        { headers: { "Mcp-Name": null } },
      ),
    );
    expectMismatch(
      await modern(
        server.url,
        "tools/call",
        { name: "echo", arguments: { text: "x" } },
        { headers: { "Mcp-Name": "countdown" } },
      ),
    );
    expectMismatch(
      await modern(server.url, "resources/read", { uri: `task://${UNKNOWN_TASK}` }, { headers: { "Mcp-Name": null } }),
    );
    expectMismatch(
      await modern(
        server.url,
        "resources/read",
        { uri: `task://${UNKNOWN_TASK}` },
        { headers: { "Mcp-Name": "task://other" } },
      ),
    );
    for (const method of ["tasks/get", "tasks/cancel"]) {
      expectMismatch(
        await modern(
          server.url,
          method,
          { taskId: UNKNOWN_TASK },
          { capabilities: TASKS, headers: { "Mcp-Name": null } },
        ),
      );
      expectMismatch(
        await modern(
          server.url,
          method,
          { taskId: UNKNOWN_TASK },
          { capabilities: TASKS, headers: { "Mcp-Name": "f".repeat(32) } },
        ),
      );
    }
    expectMismatch(
      await modern(
        server.url,
        "tasks/update",
        { taskId: UNKNOWN_TASK, inputResponses: {} },
        { capabilities: TASKS, headers: { "Mcp-Name": "f".repeat(32) } },
      ),
    );
  });

  it("decodes a Base64 Mcp-Name before comparing, and refuses an invalid one", async ({ expect }) => {
    const encoded = await modern(
      server.url,
      "tools/call",
      { name: "echo", arguments: { text: "x" } },
      { headers: { "Mcp-Name": `=?base64?${Buffer.from("echo").toString("base64")}?=` } },
    );
    expect(encoded.status).toBe(200);
    const unicode = "tâche-ü";
    const unknownTool = await modern(
      server.url,
      "tools/call",
      { name: unicode, arguments: {} },
      { headers: { "Mcp-Name": headerValue(unicode) } },
    );
    expect(unknownTool.status).toBe(200);
    expect(errorOf(unknownTool)).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool") });
    expectMismatch(
      await modern(
        server.url,
        "tools/call",
        { name: "echo", arguments: { text: "x" } },
        { headers: { "Mcp-Name": "=?base64?not*base64?=" } },
      ),
    );
    expectMismatch(
      await modern(
        server.url,
        "tools/call",
        { name: "echo", arguments: { text: "x" } },
        { headers: { "Mcp-Name": `=?base64?${Buffer.from("countdown").toString("base64")}?=` } },
      ),
    );
  });
});

describe("2026 errors", () => {
  it("answers an unknown version with HTTP 400 -32022 listing the supported versions", async ({ expect }) => {
    const reply = await modern(
      server.url,
      "tools/list",
      {},
      {
        meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
        headers: { "MCP-Protocol-Version": "2099-01-01" },
      },
    );
    expect(reply.status).toBe(400);
    expect(errorOf(reply)).toMatchObject({
      code: -32022,
      data: { supported: expect.arrayContaining([MODERN, "2025-11-25"]), requested: "2099-01-01" },
    });
  });

  it("answers methods this era does not have with HTTP 404 -32601", async ({ expect }) => {
    for (const method of [
      "ping",
      "initialize",
      "tasks/result",
      "tasks/list",
      "prompts/list",
      "logging/setLevel",
      "resources/subscribe",
    ]) {
      const reply = await modern(server.url, method, method.startsWith("tasks/") ? { taskId: UNKNOWN_TASK } : {}, {
        capabilities: TASKS,
      });
      expect(reply.status, method).toBe(404);
      expect(errorOf(reply).code, method).toBe(-32601);
    }
  });

  it("answers tasks/* from a client without the Tasks extension with HTTP 400 -32021", async ({ expect }) => {
    for (const [method, params] of [
      ["tasks/get", { taskId: UNKNOWN_TASK }],
      ["tasks/cancel", { taskId: UNKNOWN_TASK }],
      ["tasks/update", { taskId: UNKNOWN_TASK, inputResponses: {} }],
    ] as const) {
      const reply = await modern(server.url, method, params);
      expect(reply.status, method).toBe(400);
      expect(errorOf(reply), method).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
      });
    }
  });

  it("never answers a 2026 request with the 2025 -32600 version or session errors", async ({ expect }) => {
    const cases = [
      await modern(server.url, "tools/list", {}, { headers: { "Mcp-Session-Id": "0".repeat(64) } }),
      await modern(
        server.url,
        "tools/list",
        {},
        {
          meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
          headers: { "MCP-Protocol-Version": "2099-01-01" },
        },
      ),
      await modern(server.url, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      }),
    ];
    for (const reply of cases) expect(reply.body && "error" in reply.body ? errorOf(reply).code : 0).not.toBe(-32600);
  });

  it("answers oversized, non-JSON, batched and non-request bodies under the 2026 header precisely, never with a 5xx", async ({
    expect,
  }) => {
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": MODERN,
      "Mcp-Method": "tools/list",
    };
    const huge = await post(
      server.url,
      JSON.stringify(modernBody("tools/list", { pad: "x".repeat(1_100_000) })),
      headers,
    );
    expect(huge.status).toBe(413);
    expect(errorOf(huge).message).toContain("larger than");
    const garbage = await post(server.url, "{not json", headers);
    expect(garbage.status).toBe(400);
    expect(errorOf(garbage).code).toBe(-32700);
    const batch = await post(server.url, [modernBody("tools/list"), modernBody("tools/list", {}, { id: 2 })], headers);
    expect(batch.status).toBe(400);
    expect(errorOf(batch).code).toBe(-32600);
    const response = await post(server.url, { jsonrpc: "2.0", id: 1, result: {} }, headers);
    expect(response.status).toBe(400);
    const media = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "text/plain" },
      body: JSON.stringify(modernBody("tools/list")),
    });
    expect(media.status).toBe(415);
  });

  it("refuses initialize sent with the 2026 header with -32020", async ({ expect }) => {
    const reply = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      },
      { headers: { "MCP-Protocol-Version": MODERN } },
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: -32020 } });
  });
});
