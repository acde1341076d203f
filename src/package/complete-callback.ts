/**
 * Completes a job's callback (`job.callback`) from the Worker's own code: a queue consumer, a cron,
 * a route of the adopter's. The caller names the task's principal, as the owner's HTTP route does
 * through its auth: the task is reached by (principal, taskId), never by the URL's token.
 */
import { isTaskId, MAX_CALLBACK_BODY_BYTES, taskObjectName, type CallbackOutcome, type TaskObjectsEnv } from "../core";
import { parseJsonInput } from "../http/json-input";

/**
 * Delivers `value` (plain JSON, at most 64 KiB as JSON text) to callback `name` of `principal`'s task
 * `taskId`: `"received"` (the job wakes), or `"unknown"`, `"used"`, `"expired"` with nothing changed.
 * @example
 * await completeCallback(env, principal, taskId, "transcoded", { outputUrl });
 */
export async function completeCallback(
  env: TaskObjectsEnv,
  principal: string,
  taskId: string,
  name: string,
  value: unknown,
): Promise<CallbackOutcome> {
  if (!isTaskId(taskId)) return "unknown";
  // The same body rules as a POST: JSON text within the cap and nesting limit, handed on as parsed JSON.
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined)
    throw new TypeError("completeCallback needs a JSON value (not undefined, a function or a symbol).");
  if (new TextEncoder().encode(text).byteLength > MAX_CALLBACK_BODY_BYTES) {
    throw new RangeError(`completeCallback's value is larger than ${MAX_CALLBACK_BODY_BYTES} bytes as JSON.`);
  }
  const parsed = parseJsonInput(text);
  if (!parsed.ok) throw new RangeError(`completeCallback's value: ${parsed.message}`);
  return env.TASKS.getByName(taskObjectName(principal, taskId)).completeCallback(name, parsed.value);
}
