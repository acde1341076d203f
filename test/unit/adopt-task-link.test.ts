// Routes the adopter's router never forwards (issue 49, point 4): at its first task request, the
// package asks the Worker's own default export (ctx.exports) for the link its answers carry, and
// logs once, with the line to add, when the router answers it itself.
import { afterEach, describe, it, vi } from "vitest";
import { durableTasks, type FetchHandler } from "../../src/adopt/durable-tasks";
import countdown from "../../src/tools/countdown";

/** A ctx whose `exports.default` is the Worker's router, and whose waitUntil work a test awaits. */
function workerCtx(router: FetchHandler<unknown>) {
  const pending: Promise<unknown>[] = [];
  const ctx: ExecutionContext = Object.assign(Object.create(null), {
    waitUntil: (promise: Promise<unknown>) => pending.push(promise),
    passThroughOnException: () => undefined,
    props: {},
    exports: { default: { fetch: (request: Request) => router(request, {}, ctx) } },
  });
  return { ctx, settled: () => Promise.all(pending) };
}

const mcpRequest = (path = "/mcp") =>
  new Request(`https://mcp.example.com${path}`, { method: "POST", headers: { Host: "mcp.example.com" } });
const notFound = () => new Response("Not found", { status: 404 });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the task link's route, checked at the first task request", () => {
  it("a router that forwards only /mcp: one warning naming the path, its status and the line to add", async ({
    expect,
  }) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const tasks = durableTasks({ tools: [countdown], principal: "per-task" });
    const mcp = tasks.fetch(() => new Response("theirs"));
    const { ctx, settled } = workerCtx((request, env, c) =>
      new URL(request.url).pathname === "/mcp" ? mcp(request, env, c) : notFound(),
    );
    tasks.taskLink.check(mcpRequest(), ctx);
    tasks.taskLink.check(mcpRequest(), ctx);
    await settled();
    expect(warn).toHaveBeenCalledTimes(1);
    const [line] = warn.mock.calls[0] ?? [];
    expect(line).toMatch(/GET \/tasks\/\{id\}.*answered 404 itself/);
    expect(line).toContain('app.all("/tasks/*", (c) => mcp(c.req.raw, c.env, c.executionCtx))');
    expect(line).toContain('durableTasks({ tasksPath: "/mcp/tasks" })');
  });

  it("a router that forwards /tasks too, or a tasksPath under the forwarded route: no warning", async ({ expect }) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const debug = vi.spyOn(console, "debug").mockImplementation(() => undefined);
    const both = durableTasks({ tools: [countdown], principal: "per-task" });
    const bothMcp = both.fetch(notFound);
    const forwardsBoth = workerCtx((request, env, c) => {
      const { pathname } = new URL(request.url);
      return pathname === "/mcp" || pathname.startsWith("/tasks/") ? bothMcp(request, env, c) : notFound();
    });
    both.taskLink.check(mcpRequest(), forwardsBoth.ctx);
    await forwardsBoth.settled();
    const under = durableTasks({ tools: [countdown], principal: "per-task", tasksPath: "/mcp/tasks" });
    const underMcp = under.fetch(notFound);
    const forwardsMcp = workerCtx((request, env, c) =>
      new URL(request.url).pathname.startsWith("/mcp") ? underMcp(request, env, c) : notFound(),
    );
    under.taskLink.check(mcpRequest(), forwardsMcp.ctx);
    await forwardsMcp.settled();
    expect(warn).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledWith(
      expect.stringContaining("GET /mcp/tasks/{id}, the link answers carry, reaches tasks.fetch"),
    );
  });

  it("asks nothing where the runtime has no ctx.exports", async ({ expect }) => {
    const tasks = durableTasks({ tools: [countdown], principal: "per-task" });
    const waitUntil = vi.fn();
    const ctx: ExecutionContext = Object.assign(Object.create(null), { waitUntil, props: {} });
    tasks.taskLink.check(mcpRequest(), ctx);
    expect(waitUntil).not.toHaveBeenCalled();
  });
});
