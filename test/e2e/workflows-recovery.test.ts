// A Workflow-backed task survives a crash: SIGKILL wrangler dev (workerd, its Durable Objects and
// its local Workflows engine) while publish_report builds its pages, or while it waits for the
// answer, then restart on the same state. The task and its instance agree again, the task
// completes, and no page's step (nor its progress) is counted twice.
import { beforeAll, describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { postInput, textOf, waitForStatus } from "./support/hitl";
import {
  instanceStatus,
  pageSteps,
  progressOf,
  question,
  startPublish,
  stepsOf,
  taskDoc,
  YES,
} from "./support/workflows";
import { eventLog } from "./support/tasks";
import { until } from "../until";

// It kills and restarts its server.
// WORKFLOW_NUDGE as `npm run dev` sets it: the local engine leaves a running instance stalled after a crash.
const server = ownServer({ vars: { LEASE_MS: "3000", WORKFLOW_CHECK_SECONDS: "2", WORKFLOW_NUDGE: "true" } });
const settle = until(100);

beforeAll(async () => {
  // Checks every 2 s, so the instance the crash stalled is nudged soon after the restart (docs/workflows.md).
});

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("a crash while a Workflow-backed task runs", () => {
  it("resumes the instance after the restart: every page once, then the question, then the result", async ({
    expect,
  }) => {
    const pages = 30;
    const taskId = await startPublish(server.url, pages);
    await vi
      .waitFor(
        async () => expect((await taskDoc(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThanOrEqual(3),
        settle,
      )
      .catch(withServerLogs);
    await server.kill();
    await server.restart();

    const waiting = await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    expect(waiting.statusMessage).toBe(question(pages));
    expect((await postInput(server.url, taskId, { publish: YES })).status).toBe(200);
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    expect(textOf(done.result)).toBe(`Published a report of ${pages} pages.`);
    const events = await eventLog(server.url, taskId);
    expect(stepsOf(events)).toEqual([...pageSteps(pages), "publish"]);
    expect(progressOf(events)).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    expect((await instanceStatus(server.port, taskId)).status).toBe("complete");
  });

  it("keeps the question across the restart; the answer after it reaches the instance, which publishes once", async ({
    expect,
  }) => {
    const taskId = await startPublish(server.url, 2);
    await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    await server.kill();
    await server.restart();

    const waiting = await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    expect(waiting.inputRequests?.["publish"]?.params.message).toBe(question(2));
    expect((await postInput(server.url, taskId, { publish: YES })).status).toBe(200);
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    expect(textOf(done.result)).toBe("Published a report of 2 pages.");
    expect(stepsOf(await eventLog(server.url, taskId))).toEqual([...pageSteps(2), "publish"]);
    expect((await instanceStatus(server.port, taskId)).status).toBe("complete");
  });
});
