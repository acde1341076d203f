/**
 * `subscriptions/listen` on wrangler dev: acknowledged first with the accepted filter, then
 * `notifications/tasks` (the task as tasks/get answers it) on every change of a listed task and
 * `notifications/resources/updated` for subscribed task:// URIs, all tagged with the subscription
 * id; keepalives while quiet; a graceful close once every followed task has ended; only the caller's tasks.
 */
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { KEEPALIVE_VARS } from "./support/server-settings";
import { TASKS, errorOf, getTask, modern, openStream, startTask } from "./support/modern";
import { until } from "../until";

// Frequent keepalives, on call-policy.test.ts's server; its calls are all task-augmented (support/server-settings.ts).
const server = sharedServer(KEEPALIVE_VARS);
const alice = { token: "alice-token" };
const bob = { token: "bob-token" };
const settle = until(100);
const SUBSCRIPTION = { "io.modelcontextprotocol/subscriptionId": "listen-1" };

const byMethod = (messages: Record<string, unknown>[], method: string) =>
  messages.filter((message) => message["method"] === method);
const paramsOf = (message: Record<string, unknown> | undefined) =>
  (message?.["params"] ?? {}) as Record<string, unknown>;

describe("subscriptions/listen", () => {
  it("acknowledges first, then sends every change of a listed task, the last one as tasks/get answers it, then closes gracefully", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 2 }, alice);
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { taskIds: [taskId] } },
      { id: "listen-1", capabilities: TASKS, ...alice },
    );
    expect(stream.status).toBe(200);
    expect(stream.headers.get("Content-Type")).toContain("text/event-stream");
    await stream.ended;
    const [first] = stream.messages;
    expect(first).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { taskIds: [taskId] }, _meta: SUBSCRIPTION },
    });
    const tasks = byMethod(stream.messages, "notifications/tasks").map(paramsOf);
    expect(tasks.length).toBeGreaterThanOrEqual(3);
    for (const task of tasks) expect(task).toMatchObject({ taskId, _meta: SUBSCRIPTION });
    expect(tasks.some((task) => String(task["statusMessage"]).includes("1/2"))).toBe(true);
    const final = tasks.at(-1);
    const { resultType: _type, _meta: polledMeta, ...polled } = await getTask(server.url, taskId, alice);
    const { _meta: notifiedMeta, ...notified } = final ?? {};
    expect(notified).toEqual(polled);
    expect(notified).toMatchObject({
      status: "completed",
      result: { content: [{ text: "Countdown of 2 s finished." }] },
    });
    expect(notifiedMeta).toEqual(SUBSCRIPTION);
    expect(polledMeta).toHaveProperty(["io.modelcontextprotocol/serverInfo"]);
    expect(stream.messages.at(-1)).toMatchObject({
      jsonrpc: "2.0",
      id: "listen-1",
      result: { resultType: "complete", _meta: SUBSCRIPTION },
    });
  });

  it("sends notifications/resources/updated for a subscribed task:// URI, tagged, and nothing unasked for", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const uri = `task://${taskId}`;
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { resourceSubscriptions: [uri, "file:///etc/passwd"], toolsListChanged: true } },
      { id: "listen-1", ...alice },
    );
    await stream.ended;
    expect(stream.messages[0]).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { resourceSubscriptions: [uri] } },
    });
    expect(paramsOf(stream.messages[0])["notifications"]).not.toHaveProperty("toolsListChanged");
    const updates = byMethod(stream.messages, "notifications/resources/updated");
    expect(updates.length).toBeGreaterThanOrEqual(1);
    for (const update of updates) expect(update["params"]).toEqual({ uri, _meta: SUBSCRIPTION });
    expect(byMethod(stream.messages, "notifications/tasks")).toEqual([]);
    expect(byMethod(stream.messages, "notifications/progress")).toEqual([]);
  });

  it("sends keepalive comments while the followed task is quiet", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 60 }, alice);
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { taskIds: [taskId] } },
      { capabilities: TASKS, ...alice },
    );
    await vi.waitFor(() => expect(stream.text().split(": keepalive").length).toBeGreaterThan(2), settle);
    stream.close();
    await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, ...alice });
  });

  it("accepts only the caller's tasks: another principal's id is left out and never notified", async ({ expect }) => {
    const mine = await startTask(server.url, "countdown", { seconds: 1 }, bob);
    const theirs = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { taskIds: [mine, theirs, "not-a-task"], resourceSubscriptions: [`task://${theirs}`] } },
      { capabilities: TASKS, ...bob },
    );
    await stream.ended;
    expect(paramsOf(stream.messages[0])["notifications"]).toEqual({ taskIds: [mine], resourceSubscriptions: [] });
    expect(JSON.stringify(stream.messages)).not.toContain(theirs);
    expect(byMethod(stream.messages, "notifications/tasks").length).toBeGreaterThan(0);
  });

  it("closes gracefully at once when nothing it was asked for can be followed", async ({ expect }) => {
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { taskIds: ["0123456789abcdef0123456789abcdef"] } },
      { id: 7, capabilities: TASKS, ...alice },
    );
    await stream.ended;
    expect(stream.messages).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { taskIds: [] }, _meta: { "io.modelcontextprotocol/subscriptionId": 7 } },
      },
      {
        jsonrpc: "2.0",
        id: 7,
        result: {
          resultType: "complete",
          _meta: {
            "io.modelcontextprotocol/subscriptionId": 7,
            "io.modelcontextprotocol/serverInfo": expect.any(Object),
          },
        },
      },
    ]);
  });

  it("refuses taskIds from a client without the Tasks extension with HTTP 400 -32021, and a missing filter with -32602", async ({
    expect,
  }) => {
    const noExtension = await modern(server.url, "subscriptions/listen", { notifications: { taskIds: [] } }, alice);
    expect(noExtension.status).toBe(400);
    expect(errorOf(noExtension)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
    const noFilter = await modern(server.url, "subscriptions/listen", {}, { capabilities: TASKS, ...alice });
    expect(errorOf(noFilter).code).toBe(-32602);
  });
});
