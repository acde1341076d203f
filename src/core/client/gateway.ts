/**
 * TaskGateway: the adapters' one way into the task core, for one principal. Protocol adapters
 * (MCP 2025-11-25, 2026-07-28) and the plain HTTP routes call this; it speaks no protocol itself.
 */
import { taskPolicy, type Settings } from "../../config";
import { joinEventStream, type EventStreamFormat, type JoinedEventStream } from "../../streams/event-stream-hub";
import { feedOfEvents, openFeed, type Feed, type FeedOptions, type OpenFeed } from "../../streams/feed-client";
import type { WireEvent } from "../../streams/feed-frames";
import type { AdapterStateEntry, OpenStateEntry } from "../object/adapter-state";
import type { TaskObjectBase } from "../object/task-object";
import { callFingerprint } from "../model/call-fingerprint";
import { isTaskId, newTaskId, taskObjectName } from "../model/ids";
import { isPerTaskPrincipal, PER_TASK_NO_IDEMPOTENCY_KEY } from "../model/per-task";
import { newTask } from "../model/machine";
import { JobDispatch } from "./job-dispatch";
import type { JobMessage } from "./job-message";
import type { MessageQueue } from "../queue-port";
import type { PrincipalIndex, PrincipalIndexes } from "../principal-index-port";
import { SlotLeases } from "./slot-lease";
import { taskEventFromJson, type TaskEvent } from "../model/events";
import { parseTaskMeta, type TaskMeta } from "../model/meta";
import { CALLER_STATE } from "../model/caller-state";
import type { JsonObject } from "../../json";
import { toTaskView, type TaskEntryPage, type TaskPage } from "../model/view";
import type { AnswerOutcome, CancelOutcome, CreatedTask, CreateOptions, GetOptions, TaskSnapshot } from "./task-rpc";
import type { CallbackOutcome } from "../model/callbacks";

export interface CreateTaskRequest {
  tool: string;
  args: JsonObject;
  requestedTtlMs?: number | null;
  meta?: TaskMeta;
  idempotencyKey?: string;
  /** Adapter state kept with the task if this request creates it. */
  state?: readonly AdapterStateEntry[];
  /** A plain call that waits for its task: the object waits the job's first moments and may answer with its end. */
  wait?: boolean;
}

/**
 * How long a new task's object waits for the job's first run to end before answering a plain call
 * (docs/core.md): most quick tools are done well within it, and their result then comes back with
 * the creation. A longer job is followed on its feed from there, its progress replayed from the start.
 */
export const FIRST_MOMENTS_MS = 50;

export type CreateTaskResponse =
  /** `created`: this request wrote the task (and its adapter state); false when its idempotency key named one that exists. */
  | { ok: true; snapshot: TaskSnapshot; created: boolean }
  | { ok: false; reason: "cap"; message: string }
  /** The idempotency key belongs to another call (another tool, or other arguments): nothing was created. */
  | { ok: false; reason: "key_conflict"; message: string }
  /** A key where every caller is one principal (model/per-task.ts): it would name another caller's task. */
  | { ok: false; reason: "key_unscoped"; message: string };

/** A task's events after some point, then live ones until it ends. */
export interface TaskFeed extends Omit<Feed<TaskEvent>, "meta"> {
  /** The task's meta as the object held it when the feed opened. */
  readonly meta: TaskMeta;
}

/**
 * The core's own binding, as every layer above types it (never through a Worker's `Env`, which is
 * the consumer's): one object per task, of any class built on TaskObjectBase (src/package's TaskObject).
 */
export interface TaskObjectsEnv {
  TASKS: DurableObjectNamespace<TaskObjectBase>;
}

/**
 * What the gateway calls. The task objects are the core's own binding; the principals' indexes and the job queue come
 * through the core's ports (principal-index-port.ts, queue-port.ts), wired above it
 * (src/principals/principal-indexes.ts, src/queues/task-queues.ts).
 */
export interface GatewayBindings {
  env: TaskObjectsEnv;
  indexes: PrincipalIndexes;
  jobs: MessageQueue<JobMessage>;
}

export type OpenTaskFeed = { ok: true; feed: TaskFeed } | { ok: false; status: number };

/**
 * This isolate's admission slots, per principal and cap (slot-lease.ts). Lost on eviction: the index
 * takes them back. Shared by its requests, but each awaits only the index's own answer (lease-client.ts).
 */
const slotLeases = new SlotLeases({ maxPrincipals: 1000 });
/** This isolate's job messages, sent in batches; no request awaits another's send (job-dispatch.ts). */
const jobDispatch = new JobDispatch();

const decodeEvent = (wire: WireEvent): TaskEvent | undefined =>
  taskEventFromJson(wire.seq, wire.type, wire.at, wire.rawData);

export class TaskGateway {
  /** Tasks this gateway created that ended within their creation: their logs, so following one opens no feed. */
  private readonly endedHere = new Map<string, { meta: TaskMeta; events: TaskEvent[] }>();

  /**
   * `waitUntil` (the request's): with it, the job messages of this isolate's creations leave in
   * batches after the answer (job-dispatch.ts); without it, creation waits for its message to leave.
   */
  /**
   * `storedCaller`: what a task this gateway creates keeps of its caller (model/caller-state.ts), as
   * it is to be stored (sealed above the core); asked only when a task is written.
   */
  constructor(
    private readonly bindings: GatewayBindings,
    private readonly settings: Settings,
    readonly principal: string,
    private readonly waitUntil?: (promise: Promise<unknown>) => void,
    private readonly storedCaller?: () => Promise<JsonObject | undefined>,
  ) {}

  private task(taskId: string) {
    return this.bindings.env.TASKS.getByName(taskObjectName(this.principal, taskId));
  }

  private index(): PrincipalIndex {
    return this.bindings.indexes(this.principal);
  }

  /**
   * Durable before acknowledged: admitted (an admission slot this isolate holds, or the index asked
   * itself), then written by the task's object, which starts the job and enqueues it.
   */
  async create(request: CreateTaskRequest): Promise<CreateTaskResponse> {
    const { settings } = this;
    const createdAt = Date.now();
    if (request.idempotencyKey !== undefined && isPerTaskPrincipal(this.principal))
      return { ok: false, reason: "key_unscoped", message: PER_TASK_NO_IDEMPOTENCY_KEY };
    // An idempotency key needs the index's own answer: it may name a task that exists.
    if (request.idempotencyKey === undefined) {
      const maxActive = settings.maxActiveTasksPerPrincipal;
      const slot = await slotLeases.take(JSON.stringify([this.principal, maxActive]), (want, giveBack, waiting) =>
        this.index().lease({ principal: this.principal, want, giveBack, waiting, maxActive }),
      );
      // A slot's task reports itself to the index; if writing it fails, the slot is taken back when it is overdue.
      if (slot !== undefined) return { ok: true, ...(await this.write(slot, request, createdAt, true)) };
    }
    // The index may swap this id for a pre-provisioned one (its object already exists, so creating the task is cheaper).
    let taskId = newTaskId();
    const preview = newTask(
      {
        taskId,
        principal: this.principal,
        tool: request.tool,
        args: request.args,
        requestedTtlMs: request.requestedTtlMs,
        ...taskPolicy(settings),
      },
      createdAt,
    ).record;
    const admitted = await this.index().admit({
      task: toTaskView(preview, createdAt),
      principal: this.principal,
      tool: request.tool,
      maxActive: settings.maxActiveTasksPerPrincipal,
      ...(request.idempotencyKey !== undefined && {
        idempotencyKey: request.idempotencyKey,
        call: await callFingerprint(request.tool, request.args),
      }),
    });
    // Whether the index entry is this request's (to remove if writing the task fails).
    let ownsEntry = true;
    if (admitted.ok) {
      taskId = admitted.taskId;
    } else {
      if (admitted.reason === "cap") {
        return {
          ok: false,
          reason: "cap",
          message: `Too many unfinished tasks (${admitted.active} of ${admitted.limit}). Wait for some to finish or cancel them with tasks/cancel, then retry.`,
        };
      }
      if (admitted.reason === "conflict") {
        const other =
          admitted.tool === request.tool
            ? `the same tool "${request.tool}" with other arguments`
            : `another tool, "${admitted.tool}"`;
        return {
          ok: false,
          reason: "key_conflict",
          message: `Idempotency key "${request.idempotencyKey ?? ""}" already belongs to another call (task ${admitted.taskId}: ${other}); nothing was created. A key names one call: repeat that call exactly to get its task, or send this one with a new key.`,
        };
      }
      // Same idempotency key: answer with that task. If an earlier attempt died before writing it,
      // create it now under the id the key already names. That attempt may instead be alive, between
      // its admit and its create (another isolate): the object tells which of the two created it.
      taskId = admitted.taskId;
      const existing = await this.task(taskId).get();
      if (existing) return { ok: true, snapshot: existing, created: false };
      ownsEntry = false;
    }
    try {
      return { ok: true, ...(await this.write(taskId, request, createdAt, false)) };
    } catch (error) {
      if (ownsEntry)
        await this.index()
          .remove(taskId)
          .catch(() => undefined);
      throw error;
    }
  }

  /**
   * The object stores the task, arms its alarm, starts the job (with no grace for the queue, the
   * default: object/launch.ts) and enqueues it; `created` is the object's word: false when another
   * call wrote it first (then nothing is started or sent here: that call did it).
   */
  private async write(
    taskId: string,
    request: CreateTaskRequest,
    createdAt: number,
    slotted: boolean,
  ): Promise<{ snapshot: TaskSnapshot; created: boolean }> {
    const started = this.settings.dispatchGraceMs === 0;
    const caller = await this.storedCaller?.();
    const state = [...(request.state ?? []), ...(caller === undefined ? [] : [{ ...CALLER_STATE, value: caller }])];
    const options: CreateOptions = {
      ...(state.length > 0 && { state }),
      ...(started && { run: { waitMs: request.wait === true ? FIRST_MOMENTS_MS : 0 } }),
      ...(slotted && { slotted }),
    };
    // Typed here: the stub's own types turn our JSON records into `never` (see test/pool/support.ts).
    const made: CreatedTask = await this.task(taskId).create(
      {
        taskId,
        principal: this.principal,
        tool: request.tool,
        args: request.args,
        requestedTtlMs: request.requestedTtlMs,
        meta: request.meta ?? {},
        createdAt,
      },
      options,
    );
    const { ended, created, ...snapshot } = made;
    if (!created) return { snapshot, created };
    if (ended) {
      // The job ran to its end inside this call: there is nothing left to dispatch.
      this.endedHere.set(taskId, {
        meta: snapshot.meta,
        events: ended.events.flatMap((wire) => decodeEvent(wire) ?? []),
      });
      return { snapshot, created };
    }
    // The queue stays the job's dispatch of record; a job already started needs nothing from it
    // (queue-consumer.ts). With the request's waitUntil the message leaves after the answer, in a
    // batch; without it, this creation sends its own and waits for it.
    const message: JobMessage = { v: 1, principal: this.principal, taskId, ...(started && { started: true }) };
    if (this.waitUntil) this.waitUntil(jobDispatch.send(this.bindings.jobs, message));
    else {
      await this.bindings.jobs
        .sendBatch([message])
        .catch((error: unknown) =>
          console.error("job message could not be sent; the task's alarm starts it", taskId, error),
        );
    }
    return { snapshot, created };
  }

  /** The task; with `piecesAfter`, also its partial pieces after that number (task-rpc.ts GetOptions). */
  async get(taskId: string, options?: GetOptions): Promise<TaskSnapshot | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return options ? this.task(taskId).get(options) : this.task(taskId).get();
  }

  async cancel(taskId: string): Promise<CancelOutcome> {
    if (!isTaskId(taskId)) return { ok: false, reason: "not_found" };
    return this.task(taskId).cancel();
  }

  /**
   * Answers to a task's questions (`{ <key>: { action, content? } }`): the one way in for every path
   * a person's answer takes (tasks/update, a 2025 elicitation response, a multi round-trip retry,
   * the task_input tool, POST /tasks/{id}/input). Another principal's task is an unknown one.
   */
  async answer(taskId: string, responses: Record<string, unknown>): Promise<AnswerOutcome> {
    if (!isTaskId(taskId)) return { ok: false, reason: "not_found" };
    return this.task(taskId).answer(responses);
  }

  /** Completes the task's callback `name` with `body` as its owner (no token: the principal is the proof). */
  async completeCallback(taskId: string, name: string, body: unknown): Promise<CallbackOutcome> {
    if (!isTaskId(taskId)) return "unknown";
    return this.task(taskId).completeCallback(name, body);
  }

  async list(cursor: string | undefined, limit = 50): Promise<TaskPage | undefined> {
    // Every caller's tasks are this principal's: its list would be everyone's (the surfaces refuse in words first).
    if (isPerTaskPrincipal(this.principal)) return { tasks: [] };
    return this.index().list(cursor, limit);
  }

  /** `list` with each task's tool name. Undefined for a malformed cursor. */
  async listEntries(cursor: string | undefined, limit = 50): Promise<TaskEntryPage | undefined> {
    if (isPerTaskPrincipal(this.principal)) return { entries: [] };
    return this.index().listEntries(cursor, limit);
  }

  /** Events after `afterSeq`, then live ones until the task ends. Undefined for an unknown task. */
  async feed(taskId: string, afterSeq = 0): Promise<TaskFeed | undefined> {
    const opened = await this.openFeed(taskId, afterSeq);
    return opened.ok ? opened.feed : undefined;
  }

  /** A feed, or why not (404 no task or state, 410 that stream ended, 416 seq past the end). */
  async openFeed(taskId: string, afterSeq: number, options: FeedOptions = {}): Promise<OpenTaskFeed> {
    if (!isTaskId(taskId)) return { ok: false, status: 404 };
    const ended = this.endedHere.get(taskId);
    if (ended && options.state === undefined && afterSeq <= (ended.events.at(-1)?.seq ?? 0)) {
      return {
        ok: true,
        feed: Object.assign(feedOfEvents(ended.events.filter((event) => event.seq > afterSeq)), { meta: ended.meta }),
      };
    }
    const opened: OpenFeed<TaskEvent> = await openFeed(this.task(taskId), afterSeq, decodeEvent, options);
    if (!opened.ok) return opened;
    const { feed } = opened;
    return { ok: true, feed: Object.assign(feed, { meta: parseTaskMeta(feed.meta) }) };
  }

  /** Up to `limit` logged events after `afterSeq`, oldest first; empty for an unknown task. */
  async events(taskId: string, afterSeq: number, limit: number): Promise<TaskEvent[]> {
    if (!isTaskId(taskId)) return [];
    return this.task(taskId).events(afterSeq, limit);
  }

  /** Joins the readers of the task's `GET /tasks/{id}/events` view in this isolate (event-stream-hub.ts). */
  async joinEvents(taskId: string, format: EventStreamFormat, afterSeq: number): Promise<JoinedEventStream> {
    if (!isTaskId(taskId)) return { ok: false, status: 404 };
    const name = taskObjectName(this.principal, taskId);
    return joinEventStream(this.bindings.env.TASKS.getByName(name), name, format, afterSeq);
  }

  // ---- adapter state (object/adapter-state.ts) ---------------------------------

  async attachState(taskId: string, kind: string, value: JsonObject, key?: string): Promise<string | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return this.task(taskId).attachState(kind, value, key);
  }

  async lookupState(taskId: string, kind: string, key: string): Promise<JsonObject | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return this.task(taskId).lookupState(kind, key);
  }

  /** A new entry under the next free key, open from the task's latest event on: the entry with its span. */
  async openState(taskId: string, kind: string, value: JsonObject): Promise<OpenStateEntry | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return this.task(taskId).openState(kind, value);
  }

  /** Ends the entry's open span at the task's latest event, if it still has `ifSpans` spans (object/adapter-state.ts); returns that event's seq. */
  async closeState(taskId: string, kind: string, key: string, ifSpans?: number): Promise<number | undefined> {
    return isTaskId(taskId) ? this.task(taskId).closeState(kind, key, ifSpans) : undefined;
  }

  /** Splits the entry's open span, so a close by an earlier holder no longer applies (object/adapter-state.ts). */
  async renewState(taskId: string, kind: string, key: string): Promise<void> {
    if (isTaskId(taskId)) await this.task(taskId).renewState(kind, key);
  }

  async detachState(taskId: string, kind: string, key: string): Promise<void> {
    if (isTaskId(taskId)) await this.task(taskId).detachState(kind, key);
  }
}
