/**
 * The session's plain calls that are still open and own a task (2025-11-25): a
 * `notifications/cancelled` names only a request id, and arrives in another POST, maybe on another
 * isolate, so the call's id is kept here while its response is open, and forgotten before it answers.
 * An entry lives no longer than its call: it holds the call's deadline (its inline wait), since an
 * isolate that dies never forgets it, and a later client may reuse the id (a new SDK `Client` starts
 * its ids again): past that deadline the entry names no call, and a cancellation naming it reaches nothing.
 */
import * as z from "zod";

const PREFIX = "open-call:";

/**
 * How long past its deadline a call may still be answering: after its wait ends it closes its
 * stream, carrying the events committed meanwhile (up to 2 s: follow-task.ts, CARRY_WAIT_MS), then
 * reads its task once more for the answer.
 */
export const ANSWER_GRACE_MS = 5000;

/** An entry: the task the call created, and until when (ms, this object's clock) the call can still be open. */
const EntrySchema = z.object({ taskId: z.string(), until: z.number() });
type Entry = z.infer<typeof EntrySchema>;

/** What of the session object's key/value storage this uses (SQLite-backed; `deleteAll` ends it with the session). */
export interface OpenCallStorage {
  get(key: string): Promise<unknown>;
  put(key: string, value: Entry): Promise<void>;
  delete(key: string): Promise<boolean>;
}

export class OpenCalls {
  constructor(
    private readonly storage: OpenCallStorage,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Call `requestId` (a digest of the id, bounded) is open and follows `taskId`, which it created,
   * until its deadline, `forMs` from now (negative once passed), and ANSWER_GRACE_MS more. It replaces
   * what an earlier call with that id left.
   */
  async open(requestId: string, taskId: string, forMs: number): Promise<void> {
    const entry: Entry = { taskId, until: this.now() + forMs + ANSWER_GRACE_MS };
    await this.storage.put(PREFIX + requestId, entry);
  }

  /** The call answers: a cancellation naming it no longer reaches its task. Only its own entry (ids may be reused). */
  async close(requestId: string, taskId: string): Promise<void> {
    if ((await this.entry(requestId))?.taskId === taskId) await this.storage.delete(PREFIX + requestId);
  }

  /**
   * The task of open call `requestId`, now forgotten (a cancellation takes it once); undefined if it
   * has answered, or its deadline passed without an answer (its isolate is gone: the id may be another call's now).
   */
  async take(requestId: string): Promise<string | undefined> {
    const stored: unknown = await this.storage.get(PREFIX + requestId);
    if (stored === undefined) return undefined;
    await this.storage.delete(PREFIX + requestId);
    const entry = EntrySchema.safeParse(stored);
    // An entry of the release before this one holds no deadline (a bare task id): it cannot tell a
    // live call from a dead isolate's, so it is treated as the latter, as it most likely is.
    return entry.success && entry.data.until > this.now() ? entry.data.taskId : undefined;
  }

  private async entry(requestId: string): Promise<Entry | undefined> {
    const stored: unknown = await this.storage.get(PREFIX + requestId);
    if (typeof stored === "string") return { taskId: stored, until: 0 };
    const entry = EntrySchema.safeParse(stored);
    return entry.success ? entry.data : undefined;
  }
}
