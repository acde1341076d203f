/**
 * The session's plain calls that are still open and own a task (2025-11-25): a
 * `notifications/cancelled` names only a request id, and arrives in another POST, maybe on another
 * isolate, so the call's id is kept here while its response is open, and forgotten before it answers.
 */

const PREFIX = "open-call:";

/** The durable key/value storage of the session's object (SQLite-backed; `deleteAll` ends it with the session). */
type Storage = Pick<DurableObjectStorage, "get" | "put" | "delete">;

export class OpenCalls {
  constructor(private readonly storage: Storage) {}

  /** Call `requestId` (a digest of the id, bounded) is open and follows `taskId`, which it created. */
  async open(requestId: string, taskId: string): Promise<void> {
    await this.storage.put(PREFIX + requestId, taskId);
  }

  /** The call answers: a cancellation naming it no longer reaches its task. Only its own entry (ids may be reused). */
  async close(requestId: string, taskId: string): Promise<void> {
    if ((await this.storage.get<string>(PREFIX + requestId)) === taskId) await this.storage.delete(PREFIX + requestId);
  }

  /** The task of open call `requestId`, now forgotten (a cancellation takes it once); undefined if it has answered. */
  async take(requestId: string): Promise<string | undefined> {
    const taskId = await this.storage.get<string>(PREFIX + requestId);
    if (taskId !== undefined) await this.storage.delete(PREFIX + requestId);
    return taskId;
  }
}
