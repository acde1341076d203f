/**
 * The one rule for a queue message this Worker cannot read: a body whose tag names no consumer and
 * whose shape is none the previous release wrote (untagged.ts), and a body its consumer's schema
 * refuses, alike. On a working queue it is logged and retried until the queue dead-letters it (a
 * Worker version that reads it may be rolling out); on a dead-letter queue it is recorded on the task
 * it names, when it names one, logged with its id in any case, and acknowledged (docs/queues.md).
 */
import * as z from "zod";
import { isTaskId, taskObjectName, type TaskObjectsEnv } from "../core";
import { isDeadLetterQueue } from "./routing";

/** How long an unreadable message waits before it comes back on a working queue. */
export const UNREADABLE_RETRY_SECONDS = 30;
/** A busy or unreachable task object must not hold a dead-letter batch for long. */
const RECORD_TIMEOUT_MS = 5000;

/** What a body must hold for its task to be told: a principal and a task id, whatever else it is. */
const NamesTaskSchema = z.looseObject({
  principal: z.string().min(1).max(512),
  taskId: z.string().refine(isTaskId),
});

/** Applies the rule to `message` of queue `queue`; `problem` says in words why it cannot be read. */
export async function handleUnreadable(
  message: Message<unknown>,
  queue: string,
  problem: string,
  env: TaskObjectsEnv,
): Promise<void> {
  const { id, attempts } = message;
  const line = { event: "queue.unreadable_message", queue, id, attempts, problem };
  if (!isDeadLetterQueue(queue)) {
    console.error(JSON.stringify(line), "retried until its queue dead-letters it; its dead-letter consumer records it");
    message.retry({ delaySeconds: UNREADABLE_RETRY_SECONDS });
    return;
  }
  const named = NamesTaskSchema.safeParse(message.body);
  if (!named.success) {
    console.error(JSON.stringify({ ...line, recorded: "log only: the body names no task" }), "dropped");
    message.ack();
    return;
  }
  const { principal, taskId } = named.data;
  const text = `A queue message for this task (message id ${id}, queue ${queue}, ${attempts} deliveries) could not be read and was dropped: ${problem}.`;
  try {
    const stub = env.TASKS.getByName(taskObjectName(principal, taskId));
    const recorded = await Promise.race([
      stub.appendLog("error", text),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("the task did not answer in 5 s")), RECORD_TIMEOUT_MS),
      ),
    ]);
    console.error(
      JSON.stringify({ ...line, taskId, recorded: recorded ? "on the task" : "log only: no such task" }),
      "dropped",
    );
    message.ack();
  } catch (error) {
    // The dead-letter queue's own retries (max_retries, 3 by default) give the task another chance.
    console.error(
      JSON.stringify({ ...line, taskId, recorded: "not yet" }),
      "the task could not be reached; retried",
      error,
    );
    message.retry();
  }
}

/** The first problem zod found, in words, for `problem` above. */
export function schemaProblem(kind: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return `its ${kind} body is malformed${where}: ${issue?.message ?? "invalid"}`;
}
