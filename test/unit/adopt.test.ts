// The adopters' face (src/adopt): what a wrangler config lacks is said in words naming the binding
// and the lines to add (test/e2e/adopt-questions.test.ts sees it at a first request); only
// 2026-07-28 task traffic and /tasks reach the engine, the rest is the adopter's.
import { describe, it } from "vitest";
import { bindingProblems } from "../../src/adopt/bindings";
import { routeOf } from "../../src/adopt/route";

// The engine's tools as durable-tasks.ts passes them: the durable ones and the check-back ones.
const tools = (name: string) => ["countdown", "task_status"].includes(name);

const modern = (method: string, name?: string, path = "/mcp") =>
  new Request(`http://127.0.0.1:8787${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name !== undefined && { "Mcp-Name": name }),
    },
    body: "{}",
  });

describe("bindingProblems", () => {
  it("names each missing binding with the wrangler lines to add", ({ expect }) => {
    const problems = bindingProblems({});
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain(
      'Missing binding TASKS (TaskObject): add { "name": "TASKS", "class_name": "TaskObject" }',
    );
    expect(problems[1]).toContain("Missing binding PRINCIPALS (PrincipalObject)");
    expect(problems[2]).toContain("Missing queue binding JOBS");
    expect(problems[2]).toContain("queue: tasks.queue");
  });

  it("points at a Durable Object bound under another name", ({ expect }) => {
    const namespace = { getByName: () => undefined, idFromName: () => undefined };
    const queue = { send: () => undefined, sendBatch: () => undefined };
    const problems = bindingProblems({ TASKS: namespace, PRINCIPAL: namespace, JOBS: queue });
    expect(problems).toEqual([expect.stringContaining("is one of them meant to be PRINCIPALS?")]);
  });

  it("asks for WEBHOOKS only once WEBHOOK_SECRET says webhooks are wanted", ({ expect }) => {
    const namespace = { getByName: () => undefined, idFromName: () => undefined };
    const queue = { send: () => undefined, sendBatch: () => undefined };
    const basic = { TASKS: namespace, PRINCIPALS: namespace, JOBS: queue };
    expect(bindingProblems(basic)).toEqual([]);
    expect(bindingProblems({ ...basic, WEBHOOK_SECRET: "whsec_x" })).toEqual([
      expect.stringContaining("WEBHOOK_SECRET is set but the WEBHOOKS queue is not bound"),
    ]);
  });
});

describe("routeOf", () => {
  it("gives the engine a durable or check-back tool's 2026 call, tasks/*, task resources and /tasks", ({ expect }) => {
    expect(routeOf(modern("tools/call", "countdown"), "/mcp", tools)).toBe("mcp");
    expect(routeOf(modern("tools/call", "task_status"), "/mcp", tools)).toBe("mcp");
    expect(routeOf(modern("tasks/get"), "/mcp", tools)).toBe("mcp");
    expect(routeOf(modern("resources/read", "task://abc"), "/mcp", tools)).toBe("mcp");
    expect(routeOf(new Request("http://127.0.0.1/tasks/abc/input", { method: "POST" }), "/mcp", tools)).toBe("tasks");
  });

  it("leaves the adopter its own tools, discovery, listings and every 2025 request", ({ expect }) => {
    expect(routeOf(modern("tools/call", "echo"), "/mcp", tools)).toBe("theirs");
    expect(routeOf(modern("server/discover"), "/mcp", tools)).toBe("theirs");
    expect(routeOf(modern("tools/list"), "/mcp", tools)).toBe("theirs");
    const legacy = new Request("http://127.0.0.1/mcp", { method: "POST", body: "{}" });
    expect(routeOf(legacy, "/mcp", tools)).toBe("theirs");
    expect(routeOf(modern("tools/call", "countdown", "/other"), "/mcp", tools)).toBe("theirs");
  });
});
