/**
 * The emitter the composition root hands the job runner (`job.emit`): an occurrence for the task's
 * owner, through emitEvent. A refused emit (an unknown type, a payload its schema refuses) is the
 * tool's mistake, which no retry mends: it fails the task at once with the reason.
 */
import { PermanentError } from "../jobs/context";
import type { JobEmitter } from "../jobs/emit";
import { EmitError, emitEvent } from "./emit";
import type { EventsEnv } from "./event-logs";

export function jobEmitter(env: EventsEnv): JobEmitter {
  return async ({ name, data, eventId, principal }) => {
    try {
      await emitEvent(env, name, data, { eventId, ...(principal !== undefined && { principal }) });
    } catch (error) {
      if (error instanceof EmitError) throw new PermanentError(`job.emit: ${error.message}`);
      throw error;
    }
  };
}
