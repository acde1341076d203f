// Hostile JSON where input enters, on the real runtime: an answer or arguments nested thousands deep
// is refused whole with a 400 naming the depth limit, on every answer path and on 2026 tools/call,
// before any task is created or any object is asked; and the era claim is found in the parsed body,
// so an escaped spelling of its key is the claim.
import { describe, expect as expectOutside, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/http/json-input";
import { sharedServer } from "./support/dev-server";
import { NO_INLINE_END_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { errorOf, MODERN, modernBody, modernHeaders, post, TASKS } from "./support/modern";
import { DEPLOY, startDeploy, taskDoc, waitForStatus, YES } from "./support/hitl";

// hitl-http.test.ts's server (a deploy waits for its answer, never ends inline); deep is its own principal,
// so the tasks it lists are its own.
const server = sharedServer(NO_INLINE_END_VARS);
const auth = { Authorization: "Bearer deep-token" };

/** A POST to the MCP endpoint as deep. */
const postMcp = (body: string, headers: Record<string, string>) => post(server.url, body, { ...auth, ...headers });

/** Arrays nested `depth` deep, as text (built as text: the test must not overflow its own stack). */
const nested = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
const DEEP = "__DEEP__";
/** `value` as JSON text with the string "__DEEP__" replaced by arrays nested `depth` deep. */
const withDeep = (value: unknown, depth: number): string => JSON.stringify(value).replace(`"${DEEP}"`, nested(depth));

const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const UNKNOWN_TASK = "0".repeat(32);

async function listTaskIds(): Promise<string[]> {
  const reply = await rpc(server.url, { jsonrpc: "2.0", id: 99, method: "tasks/list", params: {} }, { headers: auth });
  return (reply.body as { result: { tasks: { taskId: string }[] } }).result.tasks.map((t) => t.taskId);
}

async function postText(path: string, body: string, headers: Record<string, string> = JSON_HEADERS) {
  const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { ...auth, ...headers }, body });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** A refusal of too-deep input: HTTP 400, the limit named, no internal exception named. */
function expectTooDeep(reply: { status: number; text: string }) {
  expectOutside(reply.status, reply.text.slice(0, 300)).toBe(400);
  expectOutside(reply.text).toContain(`at most ${MAX_JSON_DEPTH} levels`);
  expectOutside(reply.text).not.toMatch(/call stack|RangeError|Internal error|DataCloneError/i);
}

describe("deeply nested answers", () => {
  const answer = { confirm: { action: "accept", content: { confirm: true, note: DEEP } } };

  it("POST /tasks/{id}/input refuses them with 400 too_deep, for an unknown task too", async ({ expect }) => {
    for (const depth of [MAX_JSON_DEPTH + 1, 8000]) {
      const reply = await postText(`/tasks/${UNKNOWN_TASK}/input`, withDeep(answer, depth), {
        "Content-Type": "application/json",
      });
      expectTooDeep(reply);
      expect(reply.json?.["error"]).toBe("too_deep");
    }
  });

  it("every answer path refuses them and leaves the task waiting for a good answer", async ({ expect }) => {
    const taskId = await startDeploy(server.url, auth, DEPLOY);
    await waitForStatus(server.url, taskId, "input_required", auth);
    const http = await postText(`/tasks/${taskId}/input`, withDeep(answer, 8000), {
      "Content-Type": "application/json",
    });
    expectTooDeep(http);
    const response = await postText(
      "/mcp",
      withDeep({ jsonrpc: "2.0", id: `input/${taskId}/confirm`, result: answer.confirm }, 8000),
    );
    expectTooDeep(response);
    expect(response.json?.["error"]).toMatchObject({ code: -32600 });
    const tool = await postText(
      "/mcp",
      withDeep(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "task_input", arguments: { taskId, inputResponses: answer } },
        },
        8000,
      ),
    );
    expectTooDeep(tool);
    expect(tool.json?.["error"]).toMatchObject({ code: -32600 });
    const update = modernBody("tasks/update", { taskId, inputResponses: answer }, { capabilities: TASKS });
    const modernUpdate = await postText("/mcp", withDeep(update, 8000), modernHeaders(update));
    expectTooDeep(modernUpdate);
    expect(modernUpdate.json?.["error"]).toMatchObject({ code: -32600 });

    expect((await taskDoc(server.url, taskId, auth)).status).toBe("input_required");
    const good = await fetch(`${server.url}/tasks/${taskId}/input`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ confirm: YES }),
    });
    expect(good.status).toBe(200);
  });
});

describe("tools/call with deeply nested arguments", () => {
  it("2026: is refused with HTTP 400 -32600 before any task exists", async ({ expect }) => {
    const before = await listTaskIds();
    for (const depth of [MAX_JSON_DEPTH + 1, 5000, 8000]) {
      // A client that can answer questions but did not declare the Tasks extension: the call would wait on deploy's question.
      const body = modernBody(
        "tools/call",
        { name: "deploy", arguments: { ...DEPLOY, extra: DEEP } },
        { capabilities: { elicitation: {} } },
      );
      const reply = await postText("/mcp", withDeep(body, depth), modernHeaders(body));
      expectTooDeep(reply);
      expect(reply.json?.["error"]).toMatchObject({ code: -32600 });
    }
    expect(await listTaskIds()).toEqual(before);
  });

  it("is refused the same way in 2025, task-augmented or plain, before any task exists", async ({ expect }) => {
    const before = await listTaskIds();
    for (const task of [{ task: {} }, {}]) {
      const reply = await postText(
        "/mcp",
        withDeep(
          {
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "deploy", arguments: { ...DEPLOY, extra: DEEP }, ...task },
          },
          5000,
        ),
      );
      expectTooDeep(reply);
      expect(reply.json?.["error"]).toMatchObject({ code: -32600 });
    }
    expect(await listTaskIds()).toEqual(before);
  });

  it("still serves arguments nested within the limit", async ({ expect }) => {
    // The envelope takes 3 levels (body, params, arguments); the rest is the argument's own.
    const body = modernBody("tools/call", { name: "echo", arguments: { text: "deep enough", extra: DEEP } });
    const reply = await postMcp(withDeep(body, MAX_JSON_DEPTH - 3), modernHeaders(body));
    expect(reply.status).toBe(200);
    expect(reply.text).toContain("deep enough");
  });
});

describe("the era claim in any JSON spelling", () => {
  const SPELLINGS = [
    "io.modelcontextprotocol\\/protocolVersion",
    "io.modelcontextprotocol/protocolVers\\u0069on",
    "\\u0069o.modelcontextprotocol\\/protocol\\u0056ersion",
  ];
  const spelled = (body: Record<string, unknown>, key: string) =>
    JSON.stringify(body).replace('"io.modelcontextprotocol/protocolVersion"', `"${key}"`);

  it("a 2026-07-28 claim without the version header is the 2026 era's header mismatch (-32020), not a 2025 answer", async ({
    expect,
  }) => {
    for (const key of SPELLINGS) {
      const body = modernBody("tools/list");
      const headers = modernHeaders(body, { headers: { "MCP-Protocol-Version": null } });
      const reply = await postMcp(spelled(body, key), headers);
      expect(reply.status, key).toBe(400);
      expect(errorOf(reply).code, key).toBe(-32020);
    }
  });

  it("an unknown version claimed so is -32022", async ({ expect }) => {
    for (const key of SPELLINGS) {
      const body = modernBody("tools/list", {}, { meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" } });
      const headers = modernHeaders(body, { headers: { "MCP-Protocol-Version": null } });
      const reply = await postMcp(spelled(body, key), headers);
      expect(reply.status, key).toBe(400);
      expect(errorOf(reply).code, key).toBe(-32022);
    }
  });

  it("a well-formed escaped claim is served as 2026-07-28", async ({ expect }) => {
    const body = modernBody("tools/list");
    const reply = await postMcp(spelled(body, SPELLINGS[1] ?? ""), modernHeaders(body));
    expect(reply.status).toBe(200);
    expect(reply.body?.["result"]).toMatchObject({ tools: expect.any(Array) });
    expect(MODERN).toBe("2026-07-28");
  });
});
