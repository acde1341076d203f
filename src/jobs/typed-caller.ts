/**
 * A run's JobContext with `caller` parsed by the tool's own `caller` schema (defineTool): the stored
 * caller is a trust edge (it was written hours ago, maybe by an older release), so it is checked, and
 * a caller that does not fit fails the task in words instead of reaching the tool half-formed.
 * Members are passed on one by one: a spread would read `env` and `caller` (getters) at once.
 */
import type * as z from "zod";
import { PermanentError, type JobContext } from "./context";

export function withTypedCaller<S extends z.ZodType>(job: JobContext, schema: S): JobContext<z.infer<S>> {
  let parsed: { value: z.infer<S> } | undefined;
  const caller = (): z.infer<S> => {
    if (parsed) return parsed.value;
    const result = schema.safeParse(job.caller);
    if (!result.success)
      throw new PermanentError(
        `This task's caller context does not have what the tool needs (${result.error.issues.map((issue) => `${issue.path.join(".") || "caller"}: ${issue.message}`).join("; ")}). Start it again, signed in.`,
      );
    parsed = { value: result.data };
    return result.data;
  };
  return {
    taskId: job.taskId,
    attempt: job.attempt,
    version: job.version,
    signal: job.signal,
    get env() {
      return job.env;
    },
    get caller() {
      return caller();
    },
    // createJobContext's members close over their run and never read `this`: they are shared as they are.
    progress: job.progress,
    publish: job.publish,
    emit: job.emit,
    log: job.log,
    step: job.step,
    sleep: job.sleep,
    sleepUntil: job.sleepUntil,
    elicit: job.elicit,
    callback: job.callback,
    fanOut: job.fanOut,
  };
}
