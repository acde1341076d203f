/**
 * The adopter's `resolveCaller` (createTaskWorker's or durableTasks' option), kept for the isolate as
 * its tools are (tool-set.ts): the TaskObject, built by the platform, reads it when it runs a job.
 */
import type { ResolveCaller } from "../jobs/run-identity";

let recorded: ResolveCaller | undefined;

export const callerResolver = {
  record(resolve: ResolveCaller | undefined): void {
    recorded = resolve;
  },
  recorded: (): ResolveCaller | undefined => recorded,
};
