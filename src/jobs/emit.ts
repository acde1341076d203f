/**
 * `job.emit`: an occurrence of one of the server's event types, sent through the emitter the
 * composition root hands the runner (the events engine lives above the jobs). Its eventId comes
 * from the task and the emit's durable name, so a replay re-sends the same occurrence and the
 * event log keeps one.
 */
import type { JobHost } from "../core";
import type { JsonObject } from "../json";
import { PermanentError } from "./context";
import type { DurableNames } from "./durable-names";

export interface EmitRequest {
  name: string;
  data: JsonObject;
  eventId: string;
  /** The task's owner (absent for an inline call's run, which belongs to no task). */
  principal?: string;
}

/** Appends an occurrence to its event log; throws with the reason when it cannot. */
export type JobEmitter = (request: EmitRequest) => Promise<void>;

async function hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function emitFunction(
  host: JobHost,
  names: DurableNames,
  emitter: JobEmitter | undefined,
  throwIfAborted: () => void,
): (name: string, data: JsonObject, options?: { eventId?: string }) => Promise<void> {
  return async (name, data, options) => {
    throwIfAborted();
    if (emitter === undefined)
      throw new PermanentError(`job.emit("${name}"): this Worker serves no events (docs/events.md says what to bind).`);
    const key = names.next("emit", "job.emit", JSON.stringify([name, data]));
    const eventId = options?.eventId ?? `${host.taskId}.${await hex(key)}`;
    await emitter({ name, data, eventId, ...(host.principal !== undefined && { principal: host.principal }) });
  };
}
