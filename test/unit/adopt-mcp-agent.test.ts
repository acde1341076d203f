// The McpAgent lane's routing (src/adopt/mcp-agent-route.ts): only a live session's tasks/* requests,
// its calls of the engine's tools and its answers to a task's questions reach the engine; initialize,
// the adopter's own tools, notifications, batches and requests without an agents session id are the McpAgent's.
import { describe, it } from "vitest";
import {
  agentSessionOf,
  isAgentPath,
  isBatchWithEngineMessage,
  isEngineMessage,
} from "../../src/adopt/mcp-agent-route";

const served = (name: string) => ["countdown", "task_status"].includes(name);
const request = (method: string, params?: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 7, method, params });
const SESSION = "a".repeat(64);

describe("isEngineMessage", () => {
  it("takes tasks/* and calls of durable and check-back tools", ({ expect }) => {
    for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"])
      expect(isEngineMessage(request(method, { taskId: "x" }), served)).toBe(true);
    expect(isEngineMessage(request("tools/call", { name: "countdown", task: {} }), served)).toBe(true);
    expect(isEngineMessage(request("tools/call", { name: "task_status" }), served)).toBe(true);
  });

  it("leaves the adopter's tools, other methods, notifications and batches to the McpAgent", ({ expect }) => {
    expect(isEngineMessage(request("tools/call", { name: "echo" }), served)).toBe(false);
    expect(isEngineMessage(request("tools/list"), served)).toBe(false);
    expect(isEngineMessage(request("initialize", {}), served)).toBe(false);
    expect(isEngineMessage({ jsonrpc: "2.0", method: "tasks/get", params: {} }, served)).toBe(false);
    expect(isEngineMessage([request("tasks/get", { taskId: "x" })], served)).toBe(false);
    expect(isEngineMessage("tasks/get", served)).toBe(false);
  });

  it("takes a response only when its id names a task's question", ({ expect }) => {
    const question = `input/${"0123456789abcdef".repeat(2)}/decision`;
    expect(isEngineMessage({ jsonrpc: "2.0", id: question, result: { action: "decline" } }, served)).toBe(true);
    expect(isEngineMessage({ jsonrpc: "2.0", id: "elicit_abc", result: { action: "decline" } }, served)).toBe(false);
  });
});

describe("task resources and batches on the McpAgent lane", () => {
  it("takes resources/read of a task:// link, and leaves other resources to the McpAgent", ({ expect }) => {
    expect(isEngineMessage(request("resources/read", { uri: "task://0123456789abcdef" }), served)).toBe(true);
    expect(isEngineMessage(request("resources/read", { uri: "file:///notes.txt" }), served)).toBe(false);
  });

  it("tells a batch that holds a task request from one that does not", ({ expect }) => {
    expect(isBatchWithEngineMessage([request("tools/list"), request("tasks/get", { taskId: "x" })], served)).toBe(true);
    expect(isBatchWithEngineMessage([request("tools/list"), request("tools/call", { name: "echo" })], served)).toBe(
      false,
    );
    expect(isBatchWithEngineMessage(request("tasks/get", { taskId: "x" }), served)).toBe(false);
  });
});

describe("agentSessionOf", () => {
  const post = (path: string, headers: Record<string, string>) =>
    new Request(`http://127.0.0.1:8787${path}`, { method: "POST", headers, body: "{}" });

  it("is the agents session id of a POST to the McpAgent's path", ({ expect }) => {
    expect(agentSessionOf(post("/mcp", { "Mcp-Session-Id": SESSION }), "/mcp")).toBe(SESSION);
  });

  it("is undefined without one, with one agents never issues, on another path or method", ({ expect }) => {
    expect(agentSessionOf(post("/mcp", {}), "/mcp")).toBeUndefined();
    expect(agentSessionOf(post("/mcp", { "Mcp-Session-Id": "not-a-durable-object-id" }), "/mcp")).toBeUndefined();
    expect(agentSessionOf(post("/mcp-legacy", { "Mcp-Session-Id": SESSION }), "/mcp")).toBeUndefined();
    const get = new Request("http://127.0.0.1:8787/mcp", { headers: { "Mcp-Session-Id": SESSION } });
    expect(agentSessionOf(get, "/mcp")).toBeUndefined();
  });
});

describe("isAgentPath: what the lane holds to the engine's Host and Origin guards", () => {
  it("is the McpAgent's path exactly (initialize, its own tools, GET, DELETE), or every path for '/'", ({ expect }) => {
    expect(isAgentPath("/mcp", "/mcp")).toBe(true);
    expect(isAgentPath("/health", "/mcp")).toBe(false);
    expect(isAgentPath("/mcp/x", "/mcp")).toBe(false);
    expect(isAgentPath("/anything", "/")).toBe(true);
  });
});
