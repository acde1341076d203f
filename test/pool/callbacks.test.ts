// job.callback in a real TaskObject, reached through the Worker's own fetch: `external_job` with
// `notify: "callback"` waits with nothing running until its URL is POSTed to, then finishes with the
// body; bad, forged, reused and expired URLs get 4xx and change nothing.
import { describe, it, vi, type ExpectStatic } from "vitest";
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { completeCallback } from "../../src/package/complete-callback";
import type { TaskObject } from "../../src/index";
import { ANONYMOUS_PRINCIPAL } from "../../src/http/origin";
import { freshTask, storedRecord, taskStub, type TaskStub } from "./support";
import { until } from "../until";
import { callbackKeys, signCallback, type CallbackClaim } from "../../src/jobs/callback-signature";

const settle = until(100);
const ORIGIN = "http://127.0.0.1:8787";

interface StoredCallback {
  token: string;
  expiresAt: number;
  signed?: boolean;
}

/** The callback `name` as its task stored it: the token its URL carries. */
function storedCallback(stub: TaskStub, name: string): Promise<StoredCallback | undefined> {
  return runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => {
    const tables = state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name = 'callbacks'");
    if (tables.toArray().length === 0) return undefined;
    const row = state.storage.sql
      .exec<{ value: string }>("SELECT value FROM callbacks WHERE key = ?", name)
      .toArray()[0];
    return row ? (JSON.parse(row.value) as StoredCallback) : undefined;
  });
}

/** The signature the job's URL carries, under the pool's CALLER_KEY. */
async function signed(claim: CallbackClaim): Promise<string> {
  const { current } = await callbackKeys(env);
  if (!current) throw new Error("the pool sets CALLER_KEY (vitest.pool.config.ts)");
  return signCallback(current, claim);
}

async function post(path: string, body: string, contentType = "application/json"): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, { method: "POST", headers: { "Content-Type": contentType }, body });
  const response = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** An external_job task in callback mode, asleep waiting for its callback; its callback's path. */
async function waitingTask(expect: ExpectStatic, principal?: string) {
  const fresh = freshTask("external_job", { durationSeconds: 60, notify: "callback" });
  const task = principal
    ? { ...fresh, principal, stub: taskStub(principal, fresh.taskId), input: { ...fresh.input, principal } }
    : fresh;
  await task.stub.create(task.input);
  await task.stub.deliver();
  await vi.waitFor(async () => expect((await storedRecord(task.stub))?.run.phase).toBe("sleeping"), settle);
  const callback = await storedCallback(task.stub, "finished");
  if (!callback) throw new Error("no callback was opened");
  // The URL the job handed out: signed under the pool's CALLER_KEY (vitest.pool.config.ts).
  const objectId = task.stub.id.toString();
  const unsigned = `/callbacks/${objectId}/finished/${callback.token}`;
  const path = `${unsigned}/${callback.expiresAt}/${await signed({ objectId, name: "finished", ...callback })}`;
  return { ...task, callback, path, unsigned };
}

describe("a job waiting for an outside system", () => {
  it("sleeps with nothing running until its URL is POSTed to, then finishes with the body", async ({ expect }) => {
    const { stub, path, callback } = await waitingTask(expect);
    const asleep = await storedRecord(stub);
    expect(asleep?.run.wakeAt).toBe(callback.expiresAt);
    expect(asleep?.statusMessage).toMatch(/waiting for callback "finished"/);

    const response = await post(path, JSON.stringify({ outputUrl: "https://out.example/42" }));
    expect(response.status).toBe(202);
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    const record = await storedRecord(stub);
    expect(JSON.stringify(record?.outcome)).toContain("its output is at https://out.example/42");
    // One run to submit and wait, one after the callback: no polls.
    expect(record?.run.runs).toBe(2);
  });

  it("answers a reused URL 409, and the task keeps the first body", async ({ expect }) => {
    const { stub, path } = await waitingTask(expect);
    expect((await post(path, JSON.stringify({ outputUrl: "https://out.example/first" }))).status).toBe(202);
    const again = await post(path, JSON.stringify({ outputUrl: "https://out.example/second" }));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: "callback_used" });
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect(JSON.stringify((await storedRecord(stub))?.outcome)).toContain("out.example/first");
  });

  it("refuses forged, unknown, malformed, oversized, non-JSON and expired callbacks without waking the task", async ({
    expect,
  }) => {
    const { stub, path, callback, unsigned } = await waitingTask(expect);
    expect(callback.signed).toBe(true);
    const before = await storedRecord(stub);
    const forged = path.replace(
      callback.token,
      callback.token.replace(/^./, (c) => (c === "0" ? "1" : "0")),
    );
    const signature = path.slice(path.lastIndexOf("/") + 1);
    const forgedSignature = path.replace(
      signature,
      signature.replace(/^./, (c) => (c === "A" ? "B" : "A")),
    );
    // The expiry moved a day on, the signature kept: the Worker sees it was not what the task signed.
    const longer = path.replace(`/${callback.expiresAt}/`, `/${callback.expiresAt + 86_400_000}/`);
    const body = JSON.stringify({ outputUrl: "https://out.example/x" });
    const refusals: [Promise<Response>, number, string][] = [
      [post(forged, body), 404, "unknown_callback"],
      [post(forgedSignature, body), 404, "unknown_callback"],
      [post(longer, body), 404, "unknown_callback"],
      // Without its signature, a signed callback's URL is refused by the task.
      [post(unsigned, body), 404, "unknown_callback"],
      [post(path.replace("/finished/", "/other/"), body), 404, "unknown_callback"],
      [post(`/callbacks/not-an-id/finished/${callback.token}`, body), 404, "unknown_callback"],
      [post(`/callbacks/${"f".repeat(64)}/finished/${callback.token}`, body), 404, "unknown_callback"],
      [post(path, body, "text/plain"), 415, "unsupported_media_type"],
      [post(path, "{not json"), 400, "bad_json"],
      [post(path, JSON.stringify({ pad: "x".repeat(70_000) })), 413, "too_large"],
    ];
    for (const [response, status, error] of refusals) {
      const answer = await response;
      expect(answer.status).toBe(status);
      expect(await answer.json()).toMatchObject({ error });
    }
    expect(await storedRecord(stub)).toEqual(before);

    // Past its expiry the URL is gone too (the row rewritten as time would leave it).
    await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => {
      state.storage.sql.exec(
        "UPDATE callbacks SET value = ? WHERE key = 'finished'",
        JSON.stringify({ ...callback, expiresAt: Date.now() - 1 }),
      );
    });
    const expired = await post(path, body);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ error: "callback_expired" });
    // A URL signed with an expiry already past is refused by the Worker itself.
    const objectId = stub.id.toString();
    const past = { objectId, name: "finished", token: callback.token, expiresAt: Date.now() - 1 };
    const expiredAtEdge = await post(
      `/callbacks/${objectId}/finished/${callback.token}/${past.expiresAt}/${await signed(past)}`,
      body,
    );
    expect(expiredAtEdge.status).toBe(410);
    expect(await storedRecord(stub)).toEqual(before);
  });

  it("keeps taking an unsigned URL for a callback opened unsigned (before CALLER_KEY, or by the release before signatures)", async ({
    expect,
  }) => {
    const { stub, callback, unsigned } = await waitingTask(expect);
    // The row as a task opened it without a key: no `signed`.
    await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => {
      const { token, expiresAt } = callback;
      state.storage.sql.exec(
        "UPDATE callbacks SET value = ? WHERE key = 'finished'",
        JSON.stringify({ token, expiresAt }),
      );
    });
    const response = await post(unsigned, JSON.stringify({ outputUrl: "https://out.example/unsigned" }));
    expect(response.status).toBe(202);
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect(JSON.stringify((await storedRecord(stub))?.outcome)).toContain("out.example/unsigned");
    expect((await post(unsigned, JSON.stringify({ outputUrl: "https://out.example/again" }))).status).toBe(409);
  });

  it("lets the task's owner complete a callback over HTTP without its token, once", async ({ expect }) => {
    // A loopback request is the anonymous principal's (http/auth.ts): its task is theirs.
    const { stub, taskId } = await waitingTask(expect, ANONYMOUS_PRINCIPAL);
    const path = `/tasks/${taskId}/callbacks/finished`;
    const response = await post(path, JSON.stringify({ outputUrl: "https://out.example/by-owner" }));
    expect(response.status).toBe(202);
    expect((await post(path, JSON.stringify({ outputUrl: "https://out.example/again" }))).status).toBe(409);
    expect((await post(`/tasks/${taskId}/callbacks/other`, "{}")).status).toBe(404);
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect(JSON.stringify((await storedRecord(stub))?.outcome)).toContain("out.example/by-owner");
  });

  it("lets the Worker's own code complete a callback by principal and task id (completeCallback)", async ({
    expect,
  }) => {
    const { stub, principal, taskId } = await waitingTask(expect);
    await expect(completeCallback(env, principal, taskId, "finished", () => 1)).rejects.toThrow(/needs a JSON value/);
    expect(await completeCallback(env, principal, taskId, "other", {})).toBe("unknown");
    expect(await completeCallback(env, `${principal}-not`, taskId, "finished", {})).toBe("unknown");
    expect(await completeCallback(env, principal, taskId, "finished", { outputUrl: "https://out.example/code" })).toBe(
      "received",
    );
    expect(await completeCallback(env, principal, taskId, "finished", { outputUrl: "https://out.example/again" })).toBe(
      "used",
    );
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect(JSON.stringify((await storedRecord(stub))?.outcome)).toContain("out.example/code");
  });
});
