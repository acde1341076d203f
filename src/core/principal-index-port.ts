/**
 * The principal's index as the core asks it (a port): the gateway admits and lists tasks through
 * it, and a TaskObject reports its view to it. The PrincipalObject (src/principals) implements it
 * and the layers above wire it in (src/principals/principal-indexes.ts), so the core's types no
 * longer reach the object through `Env`, which the composition root builds.
 */
import type { SlotGrant } from "./client/slot-lease";
import type { TaskEntryPage, TaskPage, TaskView } from "./model/view";

export type AdmitResult =
  /** `taskId` is the id to create the task under: a pre-provisioned one, or else the one proposed. */
  | { ok: true; taskId: string }
  | { ok: false; reason: "duplicate"; taskId: string }
  /** The key was first used for another call (another tool, or other arguments): nothing admitted. */
  | { ok: false; reason: "conflict"; taskId: string; tool: string }
  | { ok: false; reason: "cap"; active: number; limit: number };

export interface LeaseInput {
  principal: string;
  /** Slots asked for. */
  want: number;
  /** Slots of an earlier lease given back unspent. */
  giveBack: string[];
  /** The isolate's creations waiting for a slot now; unset, as many as asked for. */
  waiting?: number;
  maxActive: number;
}

export interface AdmitInput {
  /** The proposed task; its id is used when the pool has none ready. */
  task: TaskView;
  /** Whose index this is; with it, the task gets a pre-provisioned id and the pool is refilled. */
  principal?: string;
  tool: string;
  idempotencyKey?: string;
  /** The call the key is bound to (call-fingerprint.ts): a key reused for another call is refused. */
  call?: string;
  maxActive: number;
}

/** One principal's index: its tasks' list, its idempotency keys, its cap on unfinished tasks. */
export interface PrincipalIndex {
  /** Admission slots for this isolate (slot-lease.ts), counted against the cap until their tasks report themselves. */
  lease(input: LeaseInput): Promise<SlotGrant>;
  /** Record a new task, unless its idempotency key is taken or the principal is at its cap. */
  admit(input: AdmitInput): Promise<AdmitResult>;
  /** The task expired, or its creation was rolled back. */
  remove(taskId: string): Promise<void>;
  /** Newest first; undefined for a malformed cursor. */
  list(cursor: string | undefined, limit: number): Promise<TaskPage | undefined>;
  /** The same page with each task's tool name. */
  listEntries(cursor: string | undefined, limit: number): Promise<TaskEntryPage | undefined>;
  /** A task answered before it is written: listed at once. */
  announce(task: TaskView, tool: string): Promise<void>;
  /** A task created under a slot reports itself: listed from here on; its slot no longer counts. */
  track(task: TaskView, tool: string): Promise<void>;
  /** A task's status changed. */
  update(task: TaskView): Promise<void>;
}

/** The index of each principal, by principal name: what the core is wired with instead of a binding. */
export type PrincipalIndexes = (principal: string) => PrincipalIndex;
