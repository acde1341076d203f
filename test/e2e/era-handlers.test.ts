/**
 * The handlers both eras share (protocol/resources.ts, protocol/tasks.ts, params, errors), as each
 * era frames them: the exact JSON of every answer, so moving a handler cannot change a byte.
 */
import { beforeAll, describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { startTask } from "./support/tasks";
import { KEYED_TOKENS, KEYED_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { TASKS, modern } from "./support/modern";

// A principal of its own on a shared server: resources/list lists only its task (other files' tasks
// could push it to a later page); no answer compared here names the principal.
const server = sharedServer(KEYED_VARS);
const auth = { Authorization: `Bearer ${KEYED_TOKENS.era}` };
let taskId: string;
const UNKNOWN_TASK = "0123456789abcdef0123456789abcdef";

beforeAll(async () => {
  taskId = await startTask(server.url, "countdown", { seconds: 1 }, auth);
  await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } }, { headers: auth });
});

/** The answer (result or error) of a 2025 request, as JSON with the task's id named. */
async function legacy(method: string, params: Record<string, unknown>): Promise<string> {
  const reply = await rpc(server.url, { jsonrpc: "2.0", id: 7, method, params }, { headers: auth });
  const body: unknown = Array.isArray(reply.body) ? reply.body[reply.body.length - 1] : reply.body;
  return named(body);
}

/** The same for a 2026-07-28 request from a client that declared the Tasks extension. */
async function modernAnswer(method: string, params: Record<string, unknown>): Promise<string> {
  return named(
    (await modern(server.url, method, params, { capabilities: TASKS, id: 7, token: KEYED_TOKENS.era })).body,
  );
}

const named = (body: unknown): string => JSON.stringify(body).replaceAll(taskId, "<task>");

describe("2025-11-25", () => {
  it("frames resources", async ({ expect }) => {
    expect(await legacy("resources/templates/list", {})).toBe(
      String.raw`{"result":{"resourceTemplates":[{"uriTemplate":"task://{taskId}","name":"task","title":"A task's status, progress and result","description":"Read it to check on a long tool call; subscribe to it to hear when it changes.","mimeType":"application/json"}]},"jsonrpc":"2.0","id":7}`,
    );
    const list = JSON.parse(await legacy("resources/list", {}));
    expect(JSON.stringify(list.result.resources[0])).toBe(
      String.raw`{"uri":"ui://mcp-task-worker/task-card.html","name":"task-card","title":"Task card","description":"A live view of a tool call's task (status, progress, steps, log, result, Cancel) for clients that render MCP Apps.","mimeType":"text/html;profile=mcp-app","_meta":{"ui":{"csp":{"connectDomains":[],"resourceDomains":[],"frameDomains":[],"baseUriDomains":[]},"prefersBorder":true}}}`,
    );
    expect(JSON.stringify(list.result.resources.find((r: { uri: string }) => r.uri === "task://<task>"))).toBe(
      String.raw`{"uri":"task://<task>","name":"task-<task>","title":"Task <task> (completed)","mimeType":"application/json"}`,
    );
    expect(await legacy("resources/read", { uri: `task://${UNKNOWN_TASK}` })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed."}}`,
    );
    expect(await legacy("resources/read", { uri: "https://example.com/x" })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown resource \"https://example.com/x\": this server's resources are tasks, task://{taskId}, and the task card, ui://mcp-task-worker/task-card.html."}}`,
    );
    expect(await legacy("resources/list", { cursor: "garbage!" })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid cursor: pass back a nextCursor from an earlier resources/list response unchanged."}}`,
    );
  });

  it("frames tasks and their errors", async ({ expect }) => {
    expect(await legacy("tasks/get", { taskId: UNKNOWN_TASK })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed."}}`,
    );
    expect(await legacy("tasks/cancel", { taskId: UNKNOWN_TASK })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed."}}`,
    );
    expect(await legacy("tasks/cancel", { taskId })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Cannot cancel task: it is already completed (only working or input_required tasks can be cancelled)."}}`,
    );
    expect(await legacy("tasks/list", { cursor: "garbage!" })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid cursor: pass back a nextCursor from an earlier tasks/list response unchanged."}}`,
    );
    expect(await legacy("tasks/get", {})).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params for tasks/get: params.taskId: Invalid input: expected string, received undefined"}}`,
    );
    expect(await legacy("tools/call", { name: "countdown", arguments: { seconds: "x", extra: 1 } })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid arguments for tool \"countdown\": seconds: Invalid input: expected number, received string"}}`,
    );
  });
});

describe("2026-07-28", () => {
  it("frames resources", async ({ expect }) => {
    expect(await modernAnswer("resources/templates/list", {})).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"result":{"resourceTemplates":[{"uriTemplate":"task://{taskId}","name":"task","title":"A task's status, progress and result","description":"Read it to check on a long tool call; list it in subscriptions/listen resourceSubscriptions to hear when it changes.","mimeType":"application/json"}],"ttlMs":300000,"cacheScope":"public","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-task-worker","version":"0.2.0"}}}}`,
    );
    const list = JSON.parse(await modernAnswer("resources/list", {}));
    expect(JSON.stringify({ ...list.result, resources: undefined })).toBe(
      String.raw`{"ttlMs":0,"cacheScope":"private","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-task-worker","version":"0.2.0"}}}`,
    );
    expect(JSON.stringify(list.result.resources[0])).toBe(
      String.raw`{"uri":"ui://mcp-task-worker/task-card.html","name":"task-card","title":"Task card","description":"A live view of a tool call's task (status, progress, steps, log, result, Cancel) for clients that render MCP Apps.","mimeType":"text/html;profile=mcp-app","_meta":{"ui":{"csp":{"connectDomains":[],"resourceDomains":[],"frameDomains":[],"baseUriDomains":[]},"prefersBorder":true}}}`,
    );
    expect(JSON.stringify(list.result.resources.find((r: { uri: string }) => r.uri === "task://<task>"))).toBe(
      String.raw`{"uri":"task://<task>","name":"task-<task>","title":"Task <task> (completed)","mimeType":"application/json"}`,
    );
    expect(await modernAnswer("resources/read", { uri: `task://${UNKNOWN_TASK}` })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Resource not found: \"task://0123456789abcdef0123456789abcdef\". This server's resources are your tasks, task://{taskId}, and the task card, ui://mcp-task-worker/task-card.html; tasks are deleted once their ttl has passed.","data":{"uri":"task://0123456789abcdef0123456789abcdef"}}}`,
    );
    expect(await modernAnswer("resources/read", { uri: "https://example.com/x" })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Resource not found: \"https://example.com/x\". This server's resources are your tasks, task://{taskId}, and the task card, ui://mcp-task-worker/task-card.html; tasks are deleted once their ttl has passed.","data":{"uri":"https://example.com/x"}}}`,
    );
    expect(await modernAnswer("resources/list", { cursor: "garbage!" })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid cursor: pass back a nextCursor from an earlier resources/list response unchanged."}}`,
    );
    expect(await modernAnswer("resources/list", { cursor: 12 })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid cursor: pass back a nextCursor from an earlier resources/list response unchanged."}}`,
    );
  });

  it("frames tasks and their errors", async ({ expect }) => {
    expect(await modernAnswer("tasks/get", { taskId: UNKNOWN_TASK })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed."}}`,
    );
    expect(await modernAnswer("tasks/cancel", { taskId: UNKNOWN_TASK })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed."}}`,
    );
    expect(await modernAnswer("tasks/cancel", { taskId })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-task-worker","version":"0.2.0"}}}}`,
    );
    expect(await modernAnswer("tasks/get", { taskId: 5 })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params for tasks/get: taskId: Invalid input: expected string, received number"}}`,
    );
    expect(await modernAnswer("tasks/update", { taskId: UNKNOWN_TASK })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params for tasks/update: inputResponses: Invalid input: expected record, received undefined"}}`,
    );
    expect(await modernAnswer("tools/call", { name: "" })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params for tools/call: name: Too small: expected string to have >=1 characters"}}`,
    );
    expect(await modernAnswer("tools/call", { name: "countdown", arguments: { seconds: "x", extra: 1 } })).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid arguments for tool \"countdown\": seconds: Invalid input: expected number, received string"}}`,
    );
    // The one wording that moved: resources/read now says which field is wrong like every other method (it said "uri must be a string").
    expect(await modernAnswer("resources/read", {})).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params for resources/read: uri: Invalid input: expected string, received undefined"}}`,
    );
    expect(await modernAnswer("subscriptions/listen", {})).toBe(
      String.raw`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params for subscriptions/listen: notifications: Invalid input: expected object, received undefined."}}`,
    );
  });
});
