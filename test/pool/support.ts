/** Helpers shared by the pool tests: fresh task objects and direct reads of their storage. */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { newTaskId, taskObjectName, type TaskFeed, type TaskEvent, type TaskRecord } from "../../src/core";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import { taskEventFromJson } from "../../src/core/model/events";
import { parseTaskMeta } from "../../src/core/model/meta";
import { openFeed } from "../../src/streams/feed-client";
import type { CreateTaskInput } from "../../src/core/client/task-rpc";
import type { TaskObject } from "../../src/index";

/** The TaskObject of `principal`'s task `taskId`, with its RPC methods' declared types (TaskStub). */
export function taskStub(principal: string, taskId: string): TaskStub {
  return env.TASKS.getByName(taskObjectName(principal, taskId)) as TaskStub;
}

export function freshTask(
  tool = "countdown",
  args: Record<string, unknown> = { seconds: 1 },
  extra: Partial<CreateTaskInput> = {},
) {
  const principal = `p-${crypto.randomUUID()}`;
  const taskId = newTaskId();
  const stub = taskStub(principal, taskId);
  const input: CreateTaskInput = { taskId, principal, tool, args, meta: {}, ...extra };
  return { principal, taskId, stub, input };
}

/**
 * The RPC methods with their declared types first: workers-types turns results holding
 * `unknown` (our JSON objects) into `never`, which would hide every field from the tests.
 */
type TaskApi = Pick<
  TaskObject,
  | "create"
  | "prepare"
  | "get"
  | "deliver"
  | "cancel"
  | "failDelivery"
  | "events"
  | "answer"
  | "attachState"
  | "lookupState"
  | "detachState"
  | "claimSteps"
  | "stepDone"
  | "stepFailed"
  | "stepHeartbeat"
  | "stepUndeliverable"
>;
export type TaskStub = TaskApi & DurableObjectStub<TaskObject>;

/** The stored record, read straight from SQLite (no expiry check, no side effects). */
export function storedRecord(stub: TaskStub): Promise<TaskRecord | undefined> {
  return runInDurableObject(stub, (_instance: TaskObject, state: DurableObjectState) => {
    const row = state.storage.sql.exec<{ record: string }>("SELECT record FROM task WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.record) as TaskRecord) : undefined;
  });
}

export function storedEvents(stub: TaskStub): Promise<Pick<TaskEvent, "seq" | "type">[]> {
  return runInDurableObject(stub, (_instance: TaskObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ seq: number; type: TaskEvent["type"] }>("SELECT seq, type FROM events ORDER BY seq")
      .toArray(),
  );
}

/** Whether a run of the job is alive in the object right now (its private in-memory handle). */
export function hasActiveRun(stub: TaskStub): Promise<boolean> {
  return runInDurableObject(
    stub,
    (instance: TaskObject) => TaskObjectRuntime.partsOf(instance).runs.activeLeaseId() !== undefined,
  );
}

/** The task's feed after `afterSeq`, its events typed as the gateway types them; undefined for an unknown task. */
export async function openTaskFeed(stub: TaskStub, afterSeq: number): Promise<TaskFeed | undefined> {
  const opened = await openFeed(stub, afterSeq, (wire) =>
    taskEventFromJson(wire.seq, wire.type, wire.at, wire.rawData),
  );
  return opened.ok ? Object.assign(opened.feed, { meta: parseTaskMeta(opened.feed.meta) }) : undefined;
}
