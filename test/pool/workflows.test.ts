// Workflow-backed tasks with the Workers pool's Workflows test helpers: the task follows its
// instance (introspected, not mocked), an instance answered outside MCP still ends its task, and a
// Workflow that fails (its step's retries used up) fails its task with the reason.
import { afterEach, describe, expect as expectIn, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { introspectWorkflowInstance, type WorkflowInstanceIntrospector } from "cloudflare:test";
import { freshTask, type TaskStub } from "./support";
import { until } from "../until";

vi.setConfig({ testTimeout: 60_000 });
const settle = until(100);
const YES = { action: "accept", content: { publish: true } };

const startPublish = (pages: number) => freshTask("publish_report", { pages });

// Each test's introspector is disposed after it (`await using` needs a lib this project does not load).
const introspectors: WorkflowInstanceIntrospector[] = [];
async function track(opening: Promise<WorkflowInstanceIntrospector>): Promise<WorkflowInstanceIntrospector> {
  const instance = await opening;
  introspectors.push(instance);
  return instance;
}
afterEach(async () => {
  for (const instance of introspectors.splice(0)) await instance.dispose();
});
const status = async (stub: TaskStub) => (await stub.get())?.task.status;
const textOf = (result: unknown): string => JSON.stringify(result);

describe("publish_report on its Workflow", () => {
  it("runs one instance per task, named by the task id; the answer given to the task reaches it", async ({
    expect,
  }) => {
    const { stub, input, taskId } = startPublish(2);
    const instance = await track(introspectWorkflowInstance(env.PUBLISH_REPORT, taskId));
    await stub.create(input);
    await stub.deliver();
    expect(await instance.waitForStepResult({ name: "page 1" })).toBe(1);
    expect(await instance.waitForStepResult({ name: "page 2" })).toBe(2);
    await vi.waitFor(async () => expectIn(await status(stub)).toBe("input_required"), settle);
    const answered = await stub.answer({ publish: YES });
    expect(answered.ok).toBe(true);
    await instance.waitForStatus("complete");
    expect(await instance.getOutput()).toEqual({
      content: [{ type: "text", text: "Published a report of 2 pages." }],
      structuredContent: { summary: "Published a report of 2 pages." },
    });
    await vi.waitFor(async () => expectIn(await status(stub)).toBe("completed"), settle);
    expect(textOf((await stub.get())?.outcome)).toContain("Published a report of 2 pages.");
  });

  it("ends its task when the instance got its answer outside MCP while the task waited for it", async ({ expect }) => {
    const { stub, input, taskId } = startPublish(1);
    const instance = await track(introspectWorkflowInstance(env.PUBLISH_REPORT, taskId));
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expectIn(await status(stub)).toBe("input_required"), settle);
    // As `wrangler workflows instances send-event` would: straight to the instance, not through the task.
    await (await env.PUBLISH_REPORT.get(taskId)).sendEvent({
      type: "mcp-answer-1",
      payload: { action: "accept", content: { publish: false } },
    });
    await instance.waitForStatus("complete");
    await vi.waitFor(async () => expectIn(await status(stub)).toBe("completed"), settle);
    expect(textOf((await stub.get())?.outcome)).toContain("Not published");
  });

  it("fails its task with the reason when the Workflow fails (the publish step's retries used up)", async ({
    expect,
  }) => {
    const { stub, input, taskId } = startPublish(1);
    const instance = await track(introspectWorkflowInstance(env.PUBLISH_REPORT, taskId));
    await instance.modify(async (m) => {
      await m.mockStepError({ name: "publish" }, new Error("the printer is on fire"));
    });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expectIn(await status(stub)).toBe("input_required"), settle);
    await stub.answer({ publish: YES });
    await instance.waitForStatus("errored");
    await vi.waitFor(async () => expectIn(await status(stub)).toBe("failed"), settle);
    expect((await stub.get())?.task.statusMessage).toContain("the printer is on fire");
  });
});
