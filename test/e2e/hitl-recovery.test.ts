// A task waiting for a person survives a crash: SIGKILL wrangler dev while deploy waits for its
// answer, restart it on the same state: the question is still there, the answer still resumes the
// job, and the rollout happens once. A task whose ttl runs out while it waits is gone, cleanly.
import { describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { rpc } from "./support/mcp";
import { DEPLOY, postInput, QUESTION, startDeploy, stepNames, textOf, waitForStatus, YES } from "./support/hitl";
import { until } from "../until";

// It kills and restarts its server.
const server = ownServer({ vars: { LEASE_MS: "3000" } });

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("a crash while a task waits for input", () => {
  it("keeps the question; the answer after the restart resumes the job, which rolls out once", async ({ expect }) => {
    const taskId = await startDeploy(server.url);
    await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    await server.kill();
    await server.restart();

    const waiting = await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    expect(waiting.statusMessage).toBe(QUESTION);
    expect(waiting.inputRequests?.["confirm"]?.params.message).toBe(QUESTION);
    expect((await postInput(server.url, taskId, { confirm: YES })).status).toBe(200);
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    expect(textOf(done.result)).toMatch(/^Deployed api v2/);
    expect(await stepNames(server.url, taskId)).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
  });

  it("resumes a rollout the crash interrupted after the answer, running each rollout step once", async ({ expect }) => {
    const taskId = await startDeploy(server.url);
    await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    expect((await postInput(server.url, taskId, { confirm: YES })).status).toBe(200);
    await waitForStatus(server.url, taskId, "working").catch(withServerLogs);
    await server.kill();
    await server.restart();
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    expect(textOf(done.result)).toMatch(/^Deployed api v2/);
    expect(await stepNames(server.url, taskId)).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
  });
});

describe("a task whose ttl runs out while it waits", () => {
  it("is gone once its ttl has passed, and a late answer gets 404", async ({ expect }) => {
    const reply = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "deploy", arguments: DEPLOY, task: { ttl: 3000 } },
    });
    const taskId = (reply.body as { result: { task: { taskId: string } } }).result.task.taskId;
    await waitForStatus(server.url, taskId, "input_required");
    await vi.waitFor(async () => expect((await fetch(`${server.url}/tasks/${taskId}`)).status).toBe(404), until(250));
    expect((await postInput(server.url, taskId, { confirm: YES })).status).toBe(404);
  });
});
