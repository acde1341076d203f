// Readers attach to TaskObjects and SessionObjects as hibernatable WebSockets: an object can
// be evicted from memory while a reader waits, and the next event still reaches the reader.
import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { decodeEventStreamChunk } from "../../src/streams/event-stream-frames";
import { newSessionId, sessionObjectName } from "../../src/sessions/ids";
import type { SessionObject } from "../../src/sessions/session-object";
import type { TaskObject } from "../../src/index";
import { freshTask, openTaskFeed } from "./support";
import { until } from "../until";

const MARK = "__hibernationTestMark";
const mark = (instance: object) => Reflect.set(instance, MARK, true);
const isMarked = (instance: object) => Reflect.get(instance, MARK) === true;

describe("TaskObject feed readers survive eviction", () => {
  it("a reader waiting on an evicted task still receives its next events", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 60 });
    await stub.create(input);
    const feed = await openTaskFeed(stub, 0);
    expect((await feed?.next(5000))?.type).toBe("status");
    await runInDurableObject(stub, (instance: TaskObject) => mark(instance));
    await evictDurableObject(stub);
    // A fresh instance: in-memory state is gone, the reader's socket is not.
    expect(await runInDurableObject(stub, (instance: TaskObject) => isMarked(instance))).toBe(false);
    expect(
      await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => state.getWebSockets("feed").length),
    ).toBe(1);
    await stub.cancel();
    const status = await feed?.next(5000);
    expect(status).toMatchObject({ type: "status", data: { status: "cancelled" } });
    expect((await feed?.next(5000))?.type).toBe("result");
    expect(await feed?.next(5000)).toBeNull();
  });
});

describe("readers of the GET /tasks/{id}/events view survive eviction too", () => {
  it("a waiting reader of the framed view gets the next events after an eviction", async ({ expect }) => {
    const { stub, input, taskId } = freshTask("countdown", { seconds: 60 });
    const created = await stub.create(input);
    const upgrade = await stub.fetch(`https://task.internal/feed?after=${created.lastSeq}&format=sse`, {
      headers: { Upgrade: "websocket" },
    });
    const ws = upgrade.webSocket;
    if (!ws) throw new Error(`no socket: ${upgrade.status}`);
    const frames: string[] = [];
    ws.binaryType = "arraybuffer";
    ws.addEventListener("message", (m) =>
      frames.push(new TextDecoder().decode(decodeEventStreamChunk(m.data as ArrayBuffer)?.bytes)),
    );
    ws.accept();
    await runInDurableObject(stub, (instance: TaskObject) => mark(instance));
    await evictDurableObject(stub);
    expect(await runInDurableObject(stub, (instance: TaskObject) => isMarked(instance))).toBe(false);
    expect(
      await runInDurableObject(
        stub,
        (_i: TaskObject, state: DurableObjectState) => state.getWebSockets("feed-sse").length,
      ),
    ).toBe(1);
    await stub.cancel();
    await vi.waitFor(() => expect(frames.join("")).toContain("event: result"), until(50));
    expect(frames.join("")).toContain(
      `id: t.${taskId}.0.${created.lastSeq + 1}\nevent: status\ndata: {"taskId":"${taskId}","status":"cancelled"`,
    );
  });
});

describe("SessionObject GET-stream readers survive eviction", () => {
  it("a reader waiting on an evicted session still receives the next message", async ({ expect }) => {
    const sessionId = newSessionId();
    const stub = env.SESSIONS.getByName(sessionObjectName("p-hibernation", sessionId));
    await stub.start({ sessionId, principal: "p-hibernation", protocolVersion: "2025-11-25", capabilities: {} });
    const upgrade = await stub.fetch("https://session.internal/stream", { headers: { Upgrade: "websocket" } });
    const ws = upgrade.webSocket;
    if (!ws) throw new Error(`no socket: ${upgrade.status}`);
    const frames: { seq: number; data: string }[] = [];
    ws.addEventListener("message", (m) => frames.push(JSON.parse(String(m.data))));
    ws.accept();
    await runInDurableObject(stub, (instance: SessionObject) => mark(instance));
    await evictDurableObject(stub);
    expect(await runInDurableObject(stub, (instance: SessionObject) => isMarked(instance))).toBe(false);
    const message = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "task://x" },
    });
    expect(await stub.publish([message])).toMatchObject({ readers: 1 });
    await vi.waitFor(
      () =>
        expect(frames).toEqual([
          { seq: 0, data: "" },
          { seq: 1, data: message },
        ]),
      until(50),
    );
    ws.close(1000, "done");
  });
});
