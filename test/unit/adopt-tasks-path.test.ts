// Task routes the adopter's router never forwards (issue 49, point 4): `durableTasks({ tasksPath })`
// serves the plain HTTP view of tasks under the MCP route (e.g. /mcp/tasks, beside a router's
// `app.all("/mcp/*")`), and the links the answers carry name that path.
import { describe, it } from "vitest";
import { durableTasks } from "../../src/adopt/durable-tasks";
import { tasksPathOf } from "../../src/adopt/tasks-path";
import countdown from "../../src/tools/countdown";

const ctx: ExecutionContext = Object.assign(Object.create(null), {
  waitUntil: () => undefined,
  passThroughOnException: () => undefined,
  props: {},
});
const id = "0123456789abcdef0123456789abcdef";
const get = (path: string) => new Request(`https://mcp.example.com${path}`, { headers: { Host: "mcp.example.com" } });

describe("tasksPath", () => {
  it("is checked where it is given: a path that does not end in /tasks is refused, naming the option", ({ expect }) => {
    expect(() => tasksPathOf("/mcp/task")).toThrow(/durableTasks\(\{ tasksPath: "\/mcp\/task" \}\).*ends in \/tasks/);
    expect(() => tasksPathOf("mcp/tasks")).toThrow(/tasksPath/);
  });

  it("links name it, and the view reads its requests at /tasks", ({ expect }) => {
    const under = tasksPathOf("/mcp/tasks");
    expect(under.baseUrl(get("/mcp"))).toBe("https://mcp.example.com/mcp");
    expect(new URL(under.atRoot(get(`/mcp/tasks/${id}/events`)).url).pathname).toBe(`/tasks/${id}/events`);
    expect(under.covers("/mcp/tasks")).toBe(true);
    expect(under.covers("/tasks")).toBe(false);
    const root = tasksPathOf(undefined);
    expect(root.baseUrl(get("/mcp"))).toBe("https://mcp.example.com");
    expect(root.covers(`/tasks/${id}`)).toBe(true);
  });

  it("tasks.fetch serves /mcp/tasks/{id} (the engine answers, here that bindings are missing) and leaves /tasks to the Worker", async ({
    expect,
  }) => {
    const tasks = durableTasks({ tools: [countdown], principal: () => "alice", tasksPath: "/mcp/tasks" });
    const fetch = tasks.fetch(() => new Response("theirs", { status: 404 }));
    const served = await fetch(get(`/mcp/tasks/${id}`), {}, ctx);
    expect(served.status).toBe(503);
    expect(await served.json()).toMatchObject({ error: "bindings_missing" });
    const theirs = await fetch(get(`/tasks/${id}`), {}, ctx);
    expect(await theirs.text()).toBe("theirs");
  });
});
