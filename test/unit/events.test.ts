// The Events extension's pure parts: cursors, canonical arguments and subscription ids, the default
// matching rule, status changes as occurrences, job.emit's stable eventIds, and deploy.finished.
import { describe, it } from "vitest";
import { decodeCursor, encodeCursor } from "../../src/events/cursor";
import { fieldsMatch } from "../../src/events/event-type";
import { canonicalJson, subscriptionId } from "../../src/events/subscription-id";
import { statusChanges, taskEventsObserver } from "../../src/events/task-events";
import { signingSecrets } from "../../src/events/webhook-deliveries";
import { createJobContext } from "../../src/jobs/job-context";
import type { EmitRequest } from "../../src/jobs/emit";
import { PER_TASK_PRINCIPAL, type TaskEvent, type TaskRecord } from "../../src/core";
import deployFinished from "../../src/event-types/deploy-finished";
import { MemoryTables, memoryHost } from "./memory-host";

describe("cursors", () => {
  it("round-trip, and refuse anything this server did not give out", ({ expect }) => {
    const position = { epoch: "0123456789abcdef", seq: 42 };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    expect(decodeCursor(null)).toBeNull();
    expect(decodeCursor(undefined)).toBeNull();
    for (const bad of ["", "x", "0123456789abcdef", "0123456789abcdef.-1", "0123456789ABCDEF.1", 7, {}, "a.1"])
      expect(() => decodeCursor(bad)).toThrow(/cursor/);
  });
});

describe("subscription ids", () => {
  it("are the same for equal arguments in any key order, and differ by principal, URL, name and arguments", async ({
    expect,
  }) => {
    expect(canonicalJson({ b: [2, { d: 1, c: 2 }], a: 1 })).toBe('{"a":1,"b":[2,{"c":2,"d":1}]}');
    const id = await subscriptionId("alice", "https://r/x", "task.status", { tool: "x", status: ["completed"] });
    expect(await subscriptionId("alice", "https://r/x", "task.status", { status: ["completed"], tool: "x" })).toBe(id);
    expect(id).toMatch(/^sub_[0-9a-f]{32}$/);
    for (const other of [
      await subscriptionId("bob", "https://r/x", "task.status", { tool: "x", status: ["completed"] }),
      await subscriptionId("alice", "https://r/y", "task.status", { tool: "x", status: ["completed"] }),
      await subscriptionId("alice", "https://r/x", "deploy.finished", { tool: "x", status: ["completed"] }),
      await subscriptionId("alice", "https://r/x", "task.status", { tool: "x" }),
    ])
      expect(other).not.toBe(id);
  });
});

describe("matching", () => {
  it("matches each given argument to the payload's field, an array as one of", ({ expect }) => {
    const data = { taskId: "t", tool: "deploy", status: "completed" };
    expect(fieldsMatch({}, data)).toBe(true);
    expect(fieldsMatch({ tool: "deploy" }, data)).toBe(true);
    expect(fieldsMatch({ tool: "countdown" }, data)).toBe(false);
    expect(fieldsMatch({ status: ["failed", "completed"] }, data)).toBe(true);
    expect(fieldsMatch({ status: ["failed"] }, data)).toBe(false);
  });
});

const record = (overrides: Partial<TaskRecord> = {}): TaskRecord => ({
  taskId: "a".repeat(32),
  principal: "alice",
  tool: "deploy",
  args: { service: "billing", version: "1.2" },
  status: "completed",
  createdAt: 0,
  lastUpdatedAt: 0,
  ttlMs: 1000,
  expiresAt: 1000,
  pollIntervalMs: 1000,
  meta: {},
  run: { phase: "done", runs: 1, failures: 0, delivered: true, dispatchBy: 0 },
  ...overrides,
});

const statusEvent = (seq: number, status: TaskRecord["status"], statusMessage?: string): TaskEvent => ({
  seq,
  at: 1_700_000_000_000 + seq,
  type: "status",
  data: {
    taskId: "a".repeat(32),
    status,
    ...(statusMessage !== undefined && { statusMessage }),
    createdAt: "",
    lastUpdatedAt: "",
    ttl: 1000,
    pollInterval: 1000,
  },
});

describe("task status changes", () => {
  it("are one per change of status, the first of a new task included, never one per message", ({ expect }) => {
    const events = [
      statusEvent(1, "working", "Queued."),
      statusEvent(2, "working", "Running."),
      statusEvent(3, "input_required"),
      statusEvent(4, "working"),
    ];
    const fresh = statusChanges(record({ status: "working" }), events, undefined);
    expect(fresh.map(({ seq, change }) => [seq, change.status])).toEqual([
      [1, "working"],
      [3, "input_required"],
      [4, "working"],
    ]);
    expect(statusChanges(record(), [statusEvent(5, "working", "Running.")], "working")).toEqual([]);
  });

  it("give deploy.finished its outcome from the result, or the terminal status", ({ expect }) => {
    const [completed] = statusChanges(
      record({ outcome: { kind: "result", result: { content: [], structuredContent: { deployed: true } } } }),
      [statusEvent(9, "completed")],
      "working",
    );
    expect(
      deployFinished.fromTask?.(
        completed?.change ?? { taskId: "", tool: "", args: {}, status: "working", lastUpdatedAt: "" },
      ),
    ).toEqual({
      service: "billing",
      version: "1.2",
      outcome: "deployed",
      taskId: "a".repeat(32),
    });
    const [declined] = statusChanges(
      record({ outcome: { kind: "result", result: { content: [], structuredContent: { deployed: false } } } }),
      [statusEvent(9, "completed")],
      "input_required",
    );
    expect(declined && deployFinished.fromTask?.(declined.change)).toMatchObject({ outcome: "not_deployed" });
    const [cancelled] = statusChanges(record({ status: "cancelled" }), [statusEvent(9, "cancelled")], "working");
    expect(cancelled && deployFinished.fromTask?.(cancelled.change)).toMatchObject({ outcome: "cancelled" });
    const [other] = statusChanges(record({ tool: "countdown" }), [statusEvent(9, "completed")], "working");
    expect(other && deployFinished.fromTask?.(other.change)).toBeUndefined();
  });
});

describe("job.emit", () => {
  it("gives a replayed run's emit the same eventId, and two different emits different ones", async ({ expect }) => {
    const sent: EmitRequest[] = [];
    const emitter = async (request: EmitRequest) => void sent.push(request);
    const tables = new MemoryTables();
    for (let run = 0; run < 2; run++) {
      const job = createJobContext(memoryHost(tables, { principal: "alice" }), {}, undefined, emitter);
      await job.emit("invoice.paid", { invoiceId: "i1" });
      await job.emit("invoice.paid", { invoiceId: "i2" });
      await job.emit("invoice.paid", { invoiceId: "i1" }, { eventId: "evt_upstream" });
    }
    expect(sent).toHaveLength(6);
    expect(sent[0]?.eventId).toBe(sent[3]?.eventId);
    expect(sent[1]?.eventId).toBe(sent[4]?.eventId);
    expect(sent[0]?.eventId).not.toBe(sent[1]?.eventId);
    expect(sent[2]?.eventId).toBe("evt_upstream");
    expect(sent[0]?.principal).toBe("alice");
  });

  it("fails the job in words when the Worker serves no events", async ({ expect }) => {
    const job = createJobContext(memoryHost(new MemoryTables()), {});
    await expect(job.emit("x.y", {})).rejects.toThrow(/serves no events/);
  });
});

describe("secret rotation", () => {
  it("signs with the previous secret too until its overlap ends", ({ expect }) => {
    const sub = { secret: "new", previousSecret: "old", previousUntil: 2000 };
    expect(signingSecrets(sub, 1000)).toEqual(["new", "old"]);
    expect(signingSecrets(sub, 3000)).toEqual(["new"]);
  });
});

describe('task.status of the per-task principal (durableTasks({ principal: "per-task" }))', () => {
  it("is not written: nobody may read an owner's log where every caller is one principal", async ({ expect }) => {
    const logs: string[] = [];
    // Only getByName is reached; the observer's other context parts are untouched here.
    const env = {
      EVENTS: Object.assign(Object.create(null), {
        getByName: (name: string) => {
          logs.push(name);
          return { append: async () => 0 };
        },
      }),
    };
    const context = (principal: string) =>
      Object.assign(Object.create(null), {
        env,
        record: record({ principal, status: "working" }),
        events: [statusEvent(1, "working")],
      });
    await taskEventsObserver(context(PER_TASK_PRINCIPAL));
    expect(logs).toEqual([]);
    await taskEventsObserver(context("alice"));
    expect(logs).toEqual([JSON.stringify(["task.status", "alice"])]);
  });
});
