// The console's rules for folding what it reads into what it shows (ui/console/state.ts).
import { describe, it } from "vitest";
import { eventSeq, parseTaskEvent, type ListedTask, type TaskEvent } from "../../ui/console/schema";
import {
  applyDocument,
  applyEvent,
  documentPath,
  expired,
  fromListed,
  MAX_LOG_LINES,
  mergeListed,
  needsQuestions,
  newestFirst,
  pieceCursor,
  progressBar,
  type TaskState,
} from "../../ui/console/state";

const ID = "a".repeat(32);
const listed = (over: Partial<ListedTask> = {}): ListedTask => ({
  taskId: ID,
  status: "working",
  createdAt: "2026-11-23T10:00:00.000Z",
  lastUpdatedAt: "2026-11-23T10:00:01.000Z",
  ttl: 60_000,
  pollInterval: 1000,
  tool: "countdown",
  ...over,
});
const view = (status: ListedTask["status"], lastUpdatedAt: string, statusMessage?: string) => ({
  ...listed({ status, lastUpdatedAt }),
  ...(statusMessage !== undefined && { statusMessage }),
});
const apply = (state: TaskState, ...events: TaskEvent[]) => events.reduce(applyEvent, state);

describe("console state", () => {
  it("shows partial pieces in order, once, from the stream and the document alike", ({ expect }) => {
    const piece = (n: number) => JSON.stringify({ n, content: { type: "text", text: `Item ${n} of 3: ${n * n}.` } });
    const events = [2, 1, 1]
      .map((n, i) => parseTaskEvent("partial", piece(n), i + 1))
      .filter((e): e is TaskEvent => e !== undefined);
    expect(events).toHaveLength(3);
    const streamed = apply(fromListed(listed()), ...events);
    expect(streamed.partial).toEqual([
      { n: 1, text: "Item 1 of 3: 1." },
      { n: 2, text: "Item 2 of 3: 4." },
    ]);
    const link = { n: 3, content: { type: "resource_link", uri: "https://x.test/r", name: "report" } };
    const read = applyDocument(streamed, {
      ...listed(),
      partial: { count: 3, pieces: [{ n: 2, content: { type: "text", text: "Item 2 of 3: 4." } }, link] },
    });
    expect(read.partial?.map((p) => p.text)).toEqual([
      "Item 1 of 3: 1.",
      "Item 2 of 3: 4.",
      "report (https://x.test/r)",
    ]);
    expect(read.partialCount).toBe(3);
  });

  it("keeps the attempts of a task's steps given options as its latest document lists them", ({ expect }) => {
    const submit = { name: "submit", state: "retrying", attempts: 1, durationsMs: [12], lastError: "HTTP 429" };
    const first = applyDocument(fromListed(listed()), { ...listed(), steps: [submit] });
    expect(first.attempts).toEqual([submit]);
    const done = { ...submit, state: "succeeded", attempts: 2, durationsMs: [12, 9] };
    expect(applyDocument(first, { ...listed(), steps: [done] }).attempts).toEqual([done]);
    // A document without steps (a task whose steps have no options) leaves what was read.
    expect(applyDocument(first, listed()).attempts).toEqual([submit]);
  });

  it("reads a task's document after the newest piece it holds, not every piece again", ({ expect }) => {
    const none = fromListed(listed());
    expect(documentPath(ID, pieceCursor(none))).toBe(`/tasks/${ID}`);
    const two = applyDocument(none, {
      ...listed(),
      partial: {
        count: 2,
        pieces: [1, 2].map((n) => ({ n, content: { type: "text", text: `piece ${n}` } })),
      },
    });
    expect(documentPath(ID, pieceCursor(two))).toBe(`/tasks/${ID}?after=2`);
    // What came after the cursor joins what it held.
    const three = applyDocument(two, {
      ...listed(),
      partial: { count: 3, pieces: [{ n: 3, content: { type: "text", text: "piece 3" } }] },
    });
    expect(three.partial?.map((p) => p.n)).toEqual([1, 2, 3]);
    expect(pieceCursor(three)).toBe(3);
  });

  it("reads a waiting task's questions from its document and forgets them once it goes on", ({ expect }) => {
    const question = {
      method: "elicitation/create" as const,
      params: {
        message: "Deploy?",
        requestedSchema: { properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      },
    };
    const waiting = apply(fromListed(listed({ tool: "deploy" })), {
      type: "status",
      seq: 1,
      task: view("input_required", "2026-11-23T10:00:02.000Z", "Deploy?"),
    });
    expect(needsQuestions(waiting)).toBe(true);
    const read = applyDocument(waiting, {
      ...view("input_required", "2026-11-23T10:00:02.000Z", "Deploy?"),
      tool: "deploy",
      inputRequests: { confirm: question },
    });
    expect(read.inputRequests).toEqual({ confirm: question });
    expect(needsQuestions(read)).toBe(false);
    const resumed = apply(read, {
      type: "status",
      seq: 2,
      task: view("working", "2026-11-23T10:00:03.000Z", "Answer received; resuming."),
    });
    expect(resumed.inputRequests).toBeUndefined();
  });

  it("keeps a finished task finished when a lagging list entry still says working", ({ expect }) => {
    const done = apply(fromListed(listed()), {
      type: "status",
      seq: 1,
      task: view("completed", "2026-11-23T10:00:05.000Z"),
    });
    expect(done.status).toBe("completed");
    expect(mergeListed(done, listed())).toBe(done);
  });

  it("keeps the shown message of a working task, which the list leaves out", ({ expect }) => {
    const state = apply(fromListed(listed()), {
      type: "status",
      seq: 1,
      task: view("working", "2026-11-23T10:00:01.000Z", "Waiting for the CDN."),
    });
    const merged = mergeListed(state, listed());
    expect(merged).toBe(state);
    expect(merged.statusMessage).toBe("Waiting for the CDN.");
  });

  it("ignores an event it has already applied (a resumed stream's overlap)", ({ expect }) => {
    const once = apply(fromListed(listed()), { type: "step", seq: 3, name: "started" });
    expect(apply(once, { type: "step", seq: 3, name: "started" })).toBe(once);
    expect(once.steps).toEqual(["started"]);
  });

  it("keeps the last MAX_LOG_LINES log lines and counts the rest", ({ expect }) => {
    const events = Array.from(
      { length: MAX_LOG_LINES + 5 },
      (_, i): TaskEvent => ({ type: "log", seq: i + 1, level: "info", message: `line ${i + 1}` }),
    );
    const state = apply(fromListed(listed()), ...events);
    expect(state.logs).toHaveLength(MAX_LOG_LINES);
    expect(state.logs[0]?.message).toBe("line 6");
    expect(state.logsDropped).toBe(5);
  });

  it("takes a finished task's document as its outcome, and never moves progress back", ({ expect }) => {
    const running = apply(fromListed(listed()), { type: "progress", seq: 1, progress: { progress: 5, total: 10 } });
    const stale = applyDocument(running, { ...listed(), progress: { progress: 3, total: 10 } });
    expect(stale.progress?.progress).toBe(5);
    expect(stale.outcomeRead).toBe(false);
    const done = applyDocument(running, {
      ...view("completed", "2026-11-23T10:00:09.000Z"),
      tool: "countdown",
      progress: { progress: 10, total: 10 },
      result: { content: [{ type: "text", text: "ok" }] },
    });
    expect(done).toMatchObject({
      status: "completed",
      progress: { progress: 10 },
      result: { content: [{ text: "ok" }] },
      outcomeRead: true,
    });
  });

  it("shows a bar from progress and total, full for a completed task without one, indeterminate otherwise", ({
    expect,
  }) => {
    const state = fromListed(listed());
    expect(progressBar(state)).toBeUndefined();
    expect(progressBar(apply(state, { type: "progress", seq: 1, progress: { progress: 12, total: 10 } }))).toEqual({
      value: 10,
      max: 10,
    });
    expect(progressBar({ ...state, status: "completed" })).toEqual({ value: 1, max: 1 });
    expect(progressBar({ ...state, status: "failed" })).toBeUndefined();
  });

  it("orders newest first, ties by id as the server does, and expires with the ttl", ({ expect }) => {
    const a = fromListed(listed({ taskId: "a".repeat(32) }));
    const b = fromListed(listed({ taskId: "b".repeat(32) }));
    const older = fromListed(listed({ taskId: "c".repeat(32), createdAt: "2026-11-23T09:00:00.000Z" }));
    expect([older, a, b].sort(newestFirst).map((s) => s.taskId[0])).toEqual(["b", "a", "c"]);
    expect(expired(a, a.createdAt + a.ttl)).toBe(false);
    expect(expired(a, a.createdAt + a.ttl + 1)).toBe(true);
  });
});

describe("console event parsing", () => {
  it("reads the sequence number only from this task's event ids", ({ expect }) => {
    expect(eventSeq(`t.${ID}.0.42`, ID)).toBe(42);
    expect(eventSeq(`t.${"b".repeat(32)}.0.42`, ID)).toBeUndefined();
    expect(eventSeq(`t.${ID}.1.42`, ID)).toBeUndefined();
    expect(eventSeq(undefined, ID)).toBeUndefined();
  });

  it("parses each event type and skips malformed or unknown ones", ({ expect }) => {
    expect(parseTaskEvent("progress", '{"progress":2,"total":4,"message":"half"}', 1)).toEqual({
      type: "progress",
      seq: 1,
      progress: { progress: 2, total: 4, message: "half" },
    });
    expect(parseTaskEvent("result", '{"error":{"code":-32603,"message":"boom"}}', 2)).toEqual({
      type: "result",
      seq: 2,
      error: { code: -32603, message: "boom" },
    });
    expect(parseTaskEvent("result", '{"content":[{"type":"text","text":"ok"}]}', 3)).toMatchObject({
      type: "result",
      result: { content: [{ text: "ok" }] },
    });
    expect(parseTaskEvent("log", '{"level":"info","message":"hi"}', 4)).toEqual({
      type: "log",
      seq: 4,
      level: "info",
      message: "hi",
    });
    expect(parseTaskEvent("progress", '{"progress":"x"}', 5)).toBeUndefined();
    expect(parseTaskEvent("status", "{not json", 6)).toBeUndefined();
    expect(parseTaskEvent("mystery", "{}", 7)).toBeUndefined();
  });
});
