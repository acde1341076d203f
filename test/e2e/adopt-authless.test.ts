// A public server with no sign-in, adopted as issue 49's real one was (test/fixtures/adopter-authless,
// installed from the tarball): `durableTasks({ principal: "per-task" })` serves callers from anywhere,
// each task readable by its id alone and none listed (point 5); and a router that forwards only /mcp
// is told, once, in wrangler dev's output, which line to add for the link its answers carry (point 4).
import { describe, it, vi } from "vitest";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { connectClient } from "./support/mcp";
import { errorOf, getTask, modern, resultOf, startTask, TASKS } from "./support/modern";
import { rawRequest } from "./support/raw-http";
import { taskResponse } from "./support/tasks";
import { until } from "../until";

const FIXTURE = "test/fixtures/adopter-authless";
/** The log line of src/adopt/task-link.ts. */
const UNFORWARDED = /does not reach tasks\.fetch/;

const server = ownServer(async () => ({ config: await adopterConfig(FIXTURE), vars: { INLINE_WAIT_MS: "1500" } }));
const onlyMcp = ownServer(async () => ({
  config: await adopterConfig(FIXTURE),
  vars: { INLINE_WAIT_MS: "1500", FORWARD_TASKS: "false" },
}));

/** Two callers from elsewhere (the address wrangler dev, like Cloudflare, passes on), with nothing to sign in with. */
const alice = { headers: { "CF-Connecting-IP": "203.0.113.7" } };
const bob = { headers: { "CF-Connecting-IP": "198.51.100.23" } };
/** The same callers, declaring the Tasks extension (tasks/get and tasks/cancel belong to it). */
const withTasks = (caller: typeof alice) => ({ ...caller, capabilities: TASKS });
const guessed = "0123456789abcdef0123456789abcdef";

const textOf = (result: unknown): string =>
  CallToolResultSchema.parse(result)
    .content.map((block) => (block.type === "text" ? block.text : ""))
    .join("");

describe('principal: "per-task" (issue 49, point 5)', () => {
  it("serves callers that are not loopback: each reads its own task by id, and the id alone is the capability", async ({
    expect,
  }) => {
    const aliceTask = await startTask(server.url, "countdown", { seconds: 30 }, alice);
    const bobTask = await startTask(server.url, "countdown", { seconds: 30 }, bob);
    expect(aliceTask).not.toBe(bobTask);
    expect(await getTask(server.url, aliceTask, alice)).toMatchObject({ taskId: aliceTask, status: "working" });
    expect(await getTask(server.url, bobTask, bob)).toMatchObject({ taskId: bobTask, status: "working" });
    // No sign-in, so no owner: whoever holds the id follows, reads and cancels it, on every surface.
    expect((await taskResponse(server.url, aliceTask, bob.headers)).body).toMatchObject({ taskId: aliceTask });
    const read = resultOf(await modern(server.url, "resources/read", { uri: `task://${bobTask}` }, alice));
    expect(JSON.parse((read["contents"] as { text: string }[])[0]?.text ?? "{}")).toMatchObject({ taskId: bobTask });
    const cancelled = await fetch(`${server.url}/tasks/${aliceTask}/cancel`, { method: "POST", headers: bob.headers });
    expect(cancelled.status).toBe(200);
    expect(resultOf(await modern(server.url, "tasks/cancel", { taskId: bobTask }, withTasks(bob)))).toBeDefined();
    expect(await getTask(server.url, bobTask, alice)).toMatchObject({ status: "cancelled" });
    // tasks/update reaches the task by its id too (here to say it takes no more answers).
    const update = await modern(server.url, "tasks/update", { taskId: bobTask, inputResponses: {} }, withTasks(alice));
    expect(errorOf(update).message).toContain(`Task ${bobTask} is already cancelled`);
  });

  it("a Host that is not loopback is served too, where the default refuses it", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const reply = await rawRequest(`${server.url}/tasks/${taskId}`, { headers: { Host: "tasks.example.com" } });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({ taskId });
  });

  it("lists nothing: GET /tasks and task.status events refuse in words, and no idempotency key is taken", async ({
    expect,
  }) => {
    await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const list = await fetch(`${server.url}/tasks`, { headers: bob.headers });
    expect(list.status).toBe(403);
    expect(await list.json()).toMatchObject({
      error: "listing_refused",
      message: expect.stringContaining("never listed"),
    });
    const poll = await modern(server.url, "events/poll", { name: "task.status", arguments: {}, cursor: null }, bob);
    expect(errorOf(poll)).toMatchObject({ code: -32024, message: expect.stringContaining("no sign-in") });
    const keyed = await modern(
      server.url,
      "tools/call",
      { name: "countdown", arguments: { seconds: 1 } },
      { ...bob, meta: { "mcp-task-worker/idempotency-key": "order-1" } },
    );
    expect(errorOf(keyed)).toMatchObject({ code: -32602, message: expect.stringContaining("idempotency") });
    const secret = `whsec_${Buffer.from(new Uint8Array(32).fill(7)).toString("base64")}`;
    const subscribe = await modern(
      server.url,
      "events/subscribe",
      {
        name: "task.status",
        arguments: {},
        delivery: { mode: "webhook", url: "https://hooks.example.com/tasks", secret },
      },
      bob,
    );
    expect(errorOf(subscribe)).toMatchObject({ code: -32024 });
  });

  it("a guessed id is unknown on every surface, in the words any unknown id gets", async ({ expect }) => {
    const get = await modern(server.url, "tasks/get", { taskId: guessed }, withTasks(bob));
    expect(errorOf(get)).toMatchObject({ code: -32602 });
    const update = await modern(server.url, "tasks/update", { taskId: guessed, inputResponses: {} }, withTasks(bob));
    expect(errorOf(update)).toEqual(errorOf(get));
    expect(await taskResponse(server.url, guessed, bob.headers)).toEqual({
      status: 404,
      body: { error: "not_found", message: "No such task. Tasks are deleted once their ttl has passed." },
    });
    const read = await modern(server.url, "resources/read", { uri: `task://${guessed}` }, bob);
    expect(errorOf(read).message).toMatch(/not found/i);
  });

  it("the hybrid answer's link, from a client without the Tasks extension, is followed by its id", async ({
    expect,
  }) => {
    const answer = resultOf(
      await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 30 } }, alice),
    );
    expect(textOf(answer)).toMatch(/Still running/);
    const link = CallToolResultSchema.parse(answer).content.find((block) => block.type === "resource_link");
    if (link?.type !== "resource_link") throw new Error("expected a resource_link to the task");
    const taskId = link.uri.slice("task://".length);
    expect(await getTask(server.url, taskId, bob)).toMatchObject({ taskId, status: "working" });
    // A 2025-11-25 client through createMcpHandler's legacy lane reads the same link.
    const client = await connectClient(server.url, bob);
    try {
      const read = await client.readResource({ uri: link.uri });
      const text = read.contents[0] && "text" in read.contents[0] ? read.contents[0].text : "";
      expect(JSON.parse(text)).toMatchObject({ taskId, status: "working" });
    } finally {
      await client.close();
    }
    await modern(server.url, "tasks/cancel", { taskId }, withTasks(bob));
  });
});

describe("the link's route, checked at the first task request (issue 49, point 4)", () => {
  it("a router that forwards only /mcp: wrangler dev's output says so once, with the line to add", async ({
    expect,
  }) => {
    await startTask(onlyMcp.url, "countdown", { seconds: 1 }, alice);
    await startTask(onlyMcp.url, "countdown", { seconds: 1 }, bob);
    await vi.waitFor(() => expect(onlyMcp.logs()).toMatch(UNFORWARDED), until(100));
    const lines = onlyMcp
      .logs()
      .split("\n")
      .filter((line) => UNFORWARDED.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("its router answered 404 itself");
    expect(lines[0]).toContain('app.all("/tasks/*", (c) => mcp(c.req.raw, c.env, c.executionCtx))');
    // What the warning is about: the link is the router's 404.
    expect((await fetch(`${onlyMcp.url}/tasks/${guessed}`)).status).toBe(404);
  });

  it("a router that forwards /tasks too: no such line", async ({ expect }) => {
    await startTask(server.url, "countdown", { seconds: 1 }, alice);
    await vi.waitFor(
      () => expect(server.logs()).toMatch(/GET \/tasks\/\{id\}, the link answers carry, reaches tasks\.fetch/),
      until(100),
    );
    expect(server.logs()).not.toMatch(UNFORWARDED);
  });
});
