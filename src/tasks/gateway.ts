/**
 * TaskGateway: the Worker's way into the task core, for one principal. Protocol adapters
 * (MCP 2025-11-25 today, 2026-07-28 later) and the plain HTTP routes call this; it never
 * speaks any protocol itself.
 */
import { taskPolicy, type Settings } from "../config";
import { openTaskFeed, type TaskFeed } from "./feed-client";
import { isTaskId, newTaskId, principalObjectName, taskObjectName } from "./ids";
import { newTask, toTaskView, type JsonObject, type TaskEvent } from "./model";
import type { TaskEntryPage, TaskPage } from "../principals/principal-object";
import type { AnswerOutcome, CancelOutcome, TaskSnapshot } from "./task-object";
import type { StreamMeta } from "./task-storage";

export interface CreateTaskRequest {
  tool: string;
  args: JsonObject;
  requestedTtlMs?: number | null;
  meta?: JsonObject;
  idempotencyKey?: string;
}

export type CreateTaskResponse =
  | { ok: true; snapshot: TaskSnapshot; created: boolean }
  | { ok: false; reason: "cap"; message: string };

export interface JobMessage {
  v: 1;
  principal: string;
  taskId: string;
}

export class TaskGateway {
  constructor(
    private readonly env: Env,
    private readonly settings: Settings,
    readonly principal: string,
  ) {}

  private task(taskId: string) {
    return this.env.TASKS.getByName(taskObjectName(this.principal, taskId));
  }

  private index() {
    return this.env.PRINCIPALS.getByName(principalObjectName(this.principal));
  }

  /** Durable before acknowledged: index entry, then the task's object with its alarm armed; the object enqueues the job. */
  async create(request: CreateTaskRequest): Promise<CreateTaskResponse> {
    // The index may swap this id for a pre-provisioned one (its object already exists, so creating the task is cheaper).
    let taskId = newTaskId();
    const { settings } = this;
    const preview = newTask(
      { taskId, principal: this.principal, tool: request.tool, args: request.args, requestedTtlMs: request.requestedTtlMs, ...taskPolicy(settings) },
      Date.now(),
    ).record;
    const admitted = await this.index().admit({
      task: toTaskView(preview),
      principal: this.principal,
      tool: request.tool,
      maxActive: settings.maxActiveTasksPerPrincipal,
      ...(request.idempotencyKey !== undefined && { idempotencyKey: request.idempotencyKey }),
    });
    let created = true;
    if (admitted.ok) {
      taskId = admitted.taskId;
    } else {
      if (admitted.reason === "cap") {
        return { ok: false, reason: "cap", message: `Too many unfinished tasks (${admitted.active} of ${admitted.limit}). Wait for some to finish or cancel them with tasks/cancel, then retry.` };
      }
      // Same idempotency key: answer with that task. If an earlier attempt died before
      // writing it, create it now under the id the key already names.
      taskId = admitted.taskId;
      const existing = await this.task(taskId).get();
      if (existing) return { ok: true, snapshot: existing, created: false };
      created = false;
    }
    let snapshot: TaskSnapshot;
    try {
      // The object stores the task, arms its alarm (which starts the job) and enqueues the job.
      snapshot = await this.task(taskId).create(
        { taskId, principal: this.principal, tool: request.tool, args: request.args, requestedTtlMs: request.requestedTtlMs, meta: request.meta ?? {}, createdAt: preview.createdAt },
        { enqueue: true },
      );
    } catch (error) {
      if (created) await this.index().remove(taskId).catch(() => undefined);
      throw error;
    }
    return { ok: true, snapshot, created };
  }

  async get(taskId: string): Promise<TaskSnapshot | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return this.task(taskId).get();
  }

  async cancel(taskId: string): Promise<CancelOutcome> {
    if (!isTaskId(taskId)) return { ok: false, reason: "not_found" };
    return this.task(taskId).cancel();
  }

  /** Answers to a task's questions (inputResponses, keyed as asked); keys not outstanding are ignored. */
  async answer(taskId: string, responses: Record<string, unknown>): Promise<AnswerOutcome> {
    if (!isTaskId(taskId)) return { ok: false, reason: "not_found" };
    return this.task(taskId).answer(responses);
  }

  async list(cursor: string | undefined, limit = 50): Promise<TaskPage | undefined> {
    return this.index().list(cursor, limit);
  }

  /** `list` with each task's tool name. Undefined for a malformed cursor. */
  async listEntries(cursor: string | undefined, limit = 50): Promise<TaskEntryPage | undefined> {
    return this.index().listEntries(cursor, limit);
  }

  /** Events after `afterSeq`, then live ones until the task ends. Undefined for an unknown task. */
  async feed(taskId: string, afterSeq = 0): Promise<TaskFeed | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return openTaskFeed(this.task(taskId), afterSeq);
  }

  /** Up to `limit` logged events after `afterSeq`, oldest first; empty for an unknown task. */
  async events(taskId: string, afterSeq: number, limit: number): Promise<TaskEvent[]> {
    if (!isTaskId(taskId)) return [];
    return this.task(taskId).events(afterSeq, limit);
  }

  async openStream(taskId: string, meta: Omit<StreamMeta, "key">): Promise<number | undefined> {
    return this.task(taskId).openStream(meta);
  }

  async stream(taskId: string, key: number): Promise<StreamMeta | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return this.task(taskId).stream(key);
  }

  async endStream(taskId: string, key: number, endSeq: number): Promise<void> {
    await this.task(taskId).endStream(key, endSeq);
  }
}
