// Partial results on the real runtime (docs/partial-results.md): pieces a running task publishes,
// read before it ends in both eras, after a given number, heard by subscribers, never twice.
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { connectClient, rpc } from "./support/mcp";
import { MODERN, TASKS, connectV2, getTask as modernGet, openStream, startTask as modernStart } from "./support/modern";
import { eventLog, startTask } from "./support/tasks";
import { until } from "../until";

const server = sharedServer();
const wait = until(150);

interface Piece {
  n: number;
  content: { type: string; text?: string };
}
interface Doc {
  status: string;
  progress?: { progress: number };
  partial?: { count: number; after?: number; pieces?: Piece[] };
}

const doc = async (taskId: string, query = ""): Promise<Doc> =>
  (await fetch(`${server.url}/tasks/${taskId}${query}`)).json() as Promise<Doc>;
const texts = (pieces: Piece[] = []) => pieces.map((piece) => piece.content.text);
const items = (count: number) => Array.from({ length: count }, (_, i) => `Item ${i + 1} of ${count}: ${(i + 1) ** 2}.`);

describe("partial results, 2025-11-25 and plain HTTP", () => {
  it("shows each finished item in GET /tasks/{id} before the task ends, and only what is new after N", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 5, secondsPerItem: 1 });
    let early: Doc | undefined;
    await vi.waitFor(async () => {
      early = await doc(taskId);
      expect(early.partial?.count ?? 0).toBeGreaterThanOrEqual(2);
    }, wait);
    expect(early?.status).toBe("working");
    expect(texts(early?.partial?.pieces).slice(0, 2)).toEqual(items(5).slice(0, 2));
    const after = await doc(taskId, "?after=1");
    expect(after.partial?.after).toBe(1);
    expect(after.partial?.pieces?.[0]).toEqual({ n: 2, content: { type: "text", text: "Item 2 of 5: 4." } });
    await vi.waitFor(async () => expect((await doc(taskId)).status).toBe("completed"), wait);
    const end = await doc(taskId);
    expect(end.partial?.count).toBe(5);
    expect(end.partial?.pieces?.map((piece) => piece.n)).toEqual([1, 2, 3, 4, 5]);
    expect(texts(end.partial?.pieces)).toEqual(items(5));
    expect(texts((await doc(taskId, "?after=4")).partial?.pieces)).toEqual(["Item 5 of 5: 25."]);
    expect((await doc(taskId, "?after=5")).partial?.pieces).toEqual([]);
    const log = await eventLog(server.url, taskId);
    expect(log.filter((e) => e.event === "partial").map((e) => e.data)).toEqual(
      items(5).map((text, i) => ({ n: i + 1, content: { type: "text", text } })),
    );
  });

  it("refuses a malformed after with 400 and a sentence", async ({ expect }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 1, secondsPerItem: 0 });
    for (const bad of ["-1", "x", "1.5", ""]) {
      const response = await fetch(`${server.url}/tasks/${taskId}?after=${bad}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "bad_after" });
    }
  });

  it("fans out: every item's piece once, numbered 1..N in the order items finished", async ({ expect }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 6, secondsPerItem: 0.2, parallel: true });
    await vi.waitFor(async () => expect((await doc(taskId)).status).toBe("completed"), wait);
    const end = await doc(taskId);
    expect(end.partial?.pieces?.map((piece) => piece.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect([...texts(end.partial?.pieces)].sort()).toEqual([...items(6)].sort());
  });

  it("SDK client: resources/read of task://{id}?after=N, and a subscriber hears every piece's commit", async ({
    expect,
  }) => {
    const client = await connectClient(server.url);
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => void updates.push(note.params.uri));
    const taskId = await startTask(server.url, "batch_process", { items: 4, secondsPerItem: 1.5 });
    await client.subscribeResource({ uri: `task://${taskId}` });
    // What the task held once the subscription stood: every commit after this one is announced.
    const before = await doc(taskId);
    const piecesBefore = before.partial?.count ?? 0;
    expect(
      piecesBefore,
      "the subscription came after the task's second piece: the test proves too little",
    ).toBeLessThan(2);
    await vi.waitFor(async () => expect((await doc(taskId)).status).toBe("completed"), wait);
    // batch_process publishes each item, then reports its progress: two commits of their own
    // (core/object/job-host.ts), each announced once. Progress alone gives one update per item
    // plus the end, fewer than this: the pieces must count.
    const announced = 4 - piecesBefore + (4 - (before.progress?.progress ?? 0));
    await vi.waitFor(
      () => expect(updates.filter((uri) => uri === `task://${taskId}`).length).toBeGreaterThanOrEqual(announced),
      wait,
    );
    const read = await client.readResource({ uri: `task://${taskId}?after=3` });
    const first = read.contents[0];
    const body = JSON.parse(first && "text" in first ? first.text : "{}") as Doc;
    expect(body.partial).toEqual({
      count: 4,
      after: 3,
      pieces: [{ n: 4, content: { type: "text", text: "Item 4 of 4: 16." } }],
    });
    await expect(client.readResource({ uri: `task://${taskId}?after=oops` })).rejects.toThrow(
      /after must be a whole number/,
    );
    await client.close();
  });

  it("task_status gives the model the newest pieces in words, with how many came before", async ({ expect }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 5, secondsPerItem: 0 });
    await vi.waitFor(async () => expect((await doc(taskId)).status).toBe("completed"), wait);
    const reply = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "task_status", arguments: { taskId } },
    });
    const text = JSON.stringify(reply.body);
    expect(text).toContain(
      `Output so far, 5 pieces; the newest: 3. \\"Item 3 of 5: 9.\\" 4. \\"Item 4 of 5: 16.\\" 5. \\"Item 5 of 5: 25.\\" (2 pieces came before`,
    );
  });
});

describe("partial results, the still-running answer of a plain call", () => {
  it("says there is output so far when the call outlasts its inline wait", async ({ expect }) => {
    // Item 1 ends at 2 s; the plain call answers at the inline wait (10 s) with the task still at item 4.
    const reply = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "batch_process", arguments: { items: 8, secondsPerItem: 2 } },
    });
    const text = JSON.stringify(reply.body);
    expect(text).toContain("Still running");
    expect(text).toMatch(
      /It has output so far: \d+ pieces? \(the newest: \\"Item \d of 8: \d+\.\\"\); task_status shows the newest\./,
    );
  });
});

describe("partial results, 2026-07-28", () => {
  it("tasks/get carries them under mcp-task-worker/partial, statusMessage names the newest; listen hears each", async ({
    expect,
  }) => {
    const taskId = await modernStart(server.url, "batch_process", { items: 4, secondsPerItem: 1 });
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { taskIds: [taskId], resourceSubscriptions: [`task://${taskId}`] } },
      { capabilities: TASKS },
    );
    let seen: Record<string, unknown> = {};
    await vi.waitFor(async () => {
      seen = await modernGet(server.url, taskId);
      expect(seen["status"]).toBe("working");
      expect(
        (seen["_meta"] as Record<string, { count: number }> | undefined)?.["mcp-task-worker/partial"]?.count ?? 0,
      ).toBeGreaterThanOrEqual(1);
    }, wait);
    const meta = (seen["_meta"] as Record<string, { count: number; newest: { n: number; text: string }[] }>)[
      "mcp-task-worker/partial"
    ];
    const newest = meta?.newest.at(-1);
    expect(newest?.text).toBe(`Item ${newest?.n} of 4: ${(newest?.n ?? 0) ** 2}.`);
    expect(String(seen["statusMessage"])).toContain(`output ${newest?.n}: ${newest?.text}`);
    // The subscription ends with the task; by then it has said all it will.
    await stream.ended;
    // Each piece is a change of its own, before its item's progress: notifications/tasks shows the
    // piece with the progress still at the item before, then resources/updated follows it.
    const { messages } = stream;
    const words = (m: Record<string, unknown> | undefined) => JSON.stringify(m?.["params"] ?? {});
    const first = messages.findIndex((m) => m["method"] === "notifications/tasks");
    const piecesBefore = Number(/output (\d+):/.exec(words(messages[first]))?.[1] ?? 0);
    expect(piecesBefore, "listen began after the task's second piece: the test proves too little").toBeLessThan(2);
    for (let n = piecesBefore + 1; n <= 4; n++) {
      const at = messages.findIndex(
        (m, i) =>
          i > first &&
          m["method"] === "notifications/tasks" &&
          words(m).includes(`output ${n}: Item ${n} of 4`) &&
          !words(m).includes(`${n}/4`),
      );
      expect(at, `no notification for piece ${n} before its item's progress`).toBeGreaterThan(first);
      expect(messages[at + 1]).toMatchObject({
        method: "notifications/resources/updated",
        params: { uri: `task://${taskId}` },
      });
    }
    stream.close();
  });

  it("SDK v2 client pinned to 2026-07-28: resources/read of task://{id}?after=N holds the pieces after N", async ({
    expect,
  }) => {
    const taskId = await modernStart(server.url, "batch_process", { items: 3, secondsPerItem: 0 });
    await vi.waitFor(async () => expect((await modernGet(server.url, taskId))["status"]).toBe("completed"), wait);
    const client = await connectV2(server.url, { pin: MODERN });
    try {
      const read = await client.readResource({ uri: `task://${taskId}?after=1` });
      const first = read.contents[0];
      const body = JSON.parse(first && "text" in first ? first.text : "{}") as Doc;
      expect(body.partial).toEqual({
        count: 3,
        after: 1,
        pieces: items(3)
          .slice(1)
          .map((text, i) => ({ n: i + 2, content: { type: "text", text } })),
      });
    } finally {
      await client.close();
    }
  });
});
