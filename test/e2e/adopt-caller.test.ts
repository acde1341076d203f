// A durable tool that acts for its caller (test/fixtures/adopter: durableTasks({ caller }) keeps the
// caller's upstream key, `upstream_report` calls a loopback "upstream API" with it): the key arrives on
// every step, also after a SIGKILL mid-task and with a question answered after the restart; no
// reader of the task (its owner included), no event and no log line shows it; it is not stored in
// plain text; another principal's task never gets it; a task without one fails in words.
// It kills and restarts its server.
import { spawnSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { getTask, modern, startTask, TASKS } from "./support/modern";
import { eventLog, taskResponse } from "./support/tasks";
import { upstreamApi } from "./support/upstream-api";
import { until } from "../until";

const CALLER_KEY = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const server = ownServer(async () => ({ config: await adopterConfig("test/fixtures/adopter"), vars: { CALLER_KEY } }));

const ALICE = { token: "alice-token", key: `up-alice-${crypto.randomUUID()}` };
const BOB = { token: "bob-token", key: `up-bob-${crypto.randomUUID()}` };

const upstream = upstreamApi([ALICE.key, BOB.key]);
const calls = upstream.calls;

const as = (who: typeof ALICE) => ({ token: who.token, headers: { "X-Upstream-Key": who.key } });

async function statusOf(taskId: string, who: typeof ALICE, status: string): Promise<Record<string, unknown>> {
  let task: Record<string, unknown> = {};
  await vi.waitFor(async () => {
    task = await getTask(server.url, taskId, { token: who.token });
    expect(task["status"]).toBe(status);
  }, until(120));
  return task;
}

const answerMore = (taskId: string, who: typeof ALICE) =>
  modern(
    server.url,
    "tasks/update",
    { taskId, inputResponses: { more: { action: "accept", content: { more: true } } } },
    { capabilities: TASKS, token: who.token },
  );

describe("a durable tool acting for its caller", () => {
  it("gets the caller's key on every step, across a SIGKILL and a question answered after it", async () => {
    const taskId = await startTask(server.url, "upstream_report", { api: upstream.url, pauseSeconds: 3 }, as(ALICE));
    await vi.waitFor(() => expect(calls.some((call) => call.task === taskId)).toBe(true), until(60));
    // Killed in the pause after page 1: the run that resumes it is another process's.
    await server.kill();
    await server.restart();
    // The question is answered by a request that carries no upstream key at all.
    await statusOf(taskId, ALICE, "input_required");
    expect((await answerMore(taskId, { ...ALICE, key: "" })).status).toBe(200);
    const done = await statusOf(taskId, ALICE, "completed");
    expect(JSON.stringify(done["result"])).toContain("Read page 1 and page 2.");
    const mine = calls.filter((call) => call.task === taskId);
    expect(mine.map((call) => call.page)).toEqual(expect.arrayContaining(["/page/1", "/page/2"]));
    expect(mine.every((call) => call.key === ALICE.key)).toBe(true);

    // No reader sees it: tasks/get, the plain view, its event log; nor the server's output; nor its state files.
    const views = [
      JSON.stringify(done),
      JSON.stringify((await taskResponse(server.url, taskId, { Authorization: `Bearer ${ALICE.token}` })).body),
      JSON.stringify(await eventLog(server.url, taskId, { Authorization: `Bearer ${ALICE.token}` })),
      server.logs(),
    ];
    for (const view of views) expect(view).not.toContain(ALICE.key);
    const stored = spawnSync("grep", ["-rl", ALICE.key, server.stateDir], { encoding: "utf8" });
    expect(stored.stdout.trim()).toBe("");
  });

  it("never hands one principal's key to another principal's task", async () => {
    const bobs = await startTask(server.url, "upstream_report", { api: upstream.url, pauseSeconds: 0 }, as(BOB));
    await statusOf(bobs, BOB, "input_required");
    expect((await answerMore(bobs, BOB)).status).toBe(200);
    await statusOf(bobs, BOB, "completed");
    const seen = calls.filter((call) => call.task === bobs);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((call) => call.key === BOB.key)).toBe(true);
    expect(calls.filter((call) => call.key === ALICE.key).every((call) => call.task !== bobs)).toBe(true);
  });

  it("tells, in words, that a task started without the caller's key cannot act for it", async () => {
    const taskId = await startTask(
      server.url,
      "upstream_report",
      { api: upstream.url, pauseSeconds: 0 },
      { token: ALICE.token },
    );
    const task = await statusOf(taskId, ALICE, "completed");
    expect(task).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(task["result"])).toContain("caller context does not have what the tool needs");
    expect(calls.some((call) => call.task === taskId)).toBe(false);
  });
});
