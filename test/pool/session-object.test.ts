// The SessionObject on its own: its bounded GET-stream log, the one-reader rule, and
// what ending a session undoes.
import { describe, it } from "vitest";
import { env } from "cloudflare:workers";
import { newSessionId, SESSION_WATCH_STATE, sessionObjectName } from "../../src/sessions/ids";
import { SESSION_LOG_LIMIT } from "../../src/sessions/session-storage";
import { freshTask } from "./support";

function freshSession(principal = `p-${crypto.randomUUID()}`, protocolVersion = "2025-11-25") {
  const sessionId = newSessionId();
  const stub = env.SESSIONS.getByName(sessionObjectName(principal, sessionId));
  const start = () => stub.start({ sessionId, principal, protocolVersion, capabilities: {} });
  return { sessionId, principal, stub, start };
}

type Frame = { seq: number; data: string };

/** Attaches a reader, runs `publish`, and returns the frames it got up to and including message `until`. */
async function framesUntil(stub: DurableObjectStub, query: string, until: number, publish: () => Promise<unknown>) {
  const upgrade = await attach(stub, query);
  const ws = upgrade.webSocket;
  if (!ws) throw new Error(`no socket: ${upgrade.status}`);
  const frames: Frame[] = [];
  const done = new Promise<void>((resolve) =>
    ws.addEventListener("message", (m) => {
      const frame = JSON.parse(String(m.data)) as Frame;
      frames.push(frame);
      if (frame.seq === until && frame.data !== "") resolve();
    }),
  );
  ws.accept();
  await publish();
  await done;
  ws.close(1000, "done");
  return frames;
}

const attach = (stub: DurableObjectStub, query = "") =>
  stub.fetch(`https://session.internal/stream${query}`, { headers: { Upgrade: "websocket" } });

describe("SessionObject", () => {
  it("is unknown until started and after it ends", async ({ expect }) => {
    const { stub, start } = freshSession();
    expect(await stub.touch()).toBeUndefined();
    expect(await stub.publish(["{}"])).toBe(false);
    await start();
    expect(await stub.touch()).toMatchObject({ protocolVersion: "2025-11-25" });
    expect(await stub.end()).toBe(true);
    expect(await stub.touch()).toBeUndefined();
    expect((await attach(stub)).status).toBe(404);
  });

  it("keeps the last SESSION_LOG_LIMIT events; a resume before them: 410; past the end: fresh", async ({ expect }) => {
    const { stub, start } = freshSession();
    await start();
    await stub.publish(Array.from({ length: SESSION_LOG_LIMIT + 5 }, (_, i) => JSON.stringify({ n: i })));
    expect((await attach(stub, "?after=2")).status).toBe(410);
    expect((await attach(stub, "?after=-1")).status).toBe(404);
    // Past the end: a fresh stream at the end of the log, under the one-reader rule like any fresh one.
    const fresh = await attach(stub, `?after=${SESSION_LOG_LIMIT + 6}`);
    expect(fresh.status).toBe(101);
    fresh.webSocket?.accept();
    expect((await attach(stub, `?after=${SESSION_LOG_LIMIT + 99}`)).status).toBe(409);
    fresh.webSocket?.close(1000, "done");
    const ok = await attach(stub, `?after=${SESSION_LOG_LIMIT + 3}`);
    expect(ok.status).toBe(101);
    ok.webSocket?.accept();
    ok.webSocket?.close(1000, "done");
  });

  it("primes its stream only for a session whose version defines priming events (2025-11-25)", async ({ expect }) => {
    const message = JSON.stringify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: {} });
    for (const [version, primed] of [
      ["2025-11-25", true],
      ["2025-06-18", false],
      ["2025-03-26", false],
    ] as const) {
      const { stub, start } = freshSession(undefined, version);
      await start();
      const fresh = await framesUntil(stub, "", 1, () => stub.publish([message]));
      expect(fresh, version).toEqual([...(primed ? [{ seq: 0, data: "" }] : []), { seq: 1, data: message }]);
      const resumed = await framesUntil(stub, "?after=1", 2, () => stub.publish([message]));
      expect(resumed, version).toEqual([...(primed ? [{ seq: 1, data: "" }] : []), { seq: 2, data: message }]);
    }
  });

  it("refuses a second live reader with 409, but a resume takes the stream over", async ({ expect }) => {
    const { stub, start } = freshSession();
    await start();
    const first = await attach(stub);
    first.webSocket?.accept();
    expect((await attach(stub)).status).toBe(409);
    const closed = new Promise<number>((resolve) => first.webSocket?.addEventListener("close", (e) => resolve(e.code)));
    const resumed = await attach(stub, "?after=0");
    expect(resumed.status).toBe(101);
    expect(await closed).toBe(4409);
    resumed.webSocket?.accept();
    resumed.webSocket?.close(1000, "done");
  });

  it("says how far its GET stream reached a reader: not while none is attached, then through a resume's replay and live sends", async ({
    expect,
  }) => {
    const { stub, start } = freshSession();
    await start();
    expect(await stub.publish(['{"n":1}', '{"n":2}'])).toEqual({ readers: 0, seqs: [1, 2] });
    expect(await stub.deliveredThrough()).toBe(0);
    const resumed = await attach(stub, "?after=0");
    resumed.webSocket?.accept();
    expect(await stub.deliveredThrough()).toBe(2);
    expect(await stub.publish(['{"n":3}'])).toEqual({ readers: 1, seqs: [3] });
    expect(await stub.deliveredThrough()).toBe(3);
    resumed.webSocket?.close(1000, "done");
  });

  it("ending a session removes it from the tasks it watched", async ({ expect }) => {
    const task = freshTask("countdown", { seconds: 60 });
    await task.stub.create(task.input);
    const { stub, start, sessionId } = freshSession(task.principal);
    await start();
    await stub.subscribe(`task://${task.taskId}`);
    expect(await task.stub.attachState(SESSION_WATCH_STATE, {}, sessionId)).toBe(sessionId);
    expect(await task.stub.lookupState(SESSION_WATCH_STATE, sessionId)).toEqual({});
    await stub.end();
    expect(await task.stub.lookupState(SESSION_WATCH_STATE, sessionId)).toBeUndefined();
  });
});
