/**
 * The Workflow engine behind the job port (jobs/runner.ts, ToolEngine): each run of a
 * Workflow-backed task makes sure its instance exists, sends the answers people gave as the
 * instance's events, and ends by asking (the Workflow's question), completing or failing (the
 * Workflow's output or error), or sleeping until the Workflow reports again (engine-reports.ts wakes
 * it) or its next check. The task's storage says what was already done (decide.ts), so a run that
 * dies halfway is simply run again.
 */
import * as z from "zod";
import { readSettings } from "../config";
import type { JobHost, RunOutcome } from "../core";
import type { ToolEngine } from "../jobs/runner";
import { nextMove, type EngineView, type RunView, type StatusView } from "./decide";
import {
  answerEventType,
  ERROR_NOTE,
  INSTANCE_NOTE,
  instanceIdFor,
  NUDGE_EVENT,
  OUTPUT_NOTE,
  questionNote,
  sentNote,
  type TaskWorkflowParams,
} from "./names";

/** The binding of the Workflow a tool runs on, from the Worker's env as its author declares it (`wrangler types`). */
export type WorkflowBinding = (env: Cloudflare.Env) => Workflow<TaskWorkflowParams>;

const AnswerSchema = z.object({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
  // The task's mark of a client that answered on its own (questions.ts): the Workflow words it too.
  automatic: z.literal(true).optional(),
});

/** What the task holds about its Workflow, read in one synchronous turn. */
function readView(host: JobHost): EngineView {
  const note = (name: string) => host.loadNote(name)?.value;
  const questions: EngineView["questions"] = [];
  for (let n = 1; ; n++) {
    const asked = note(questionNote(n));
    if (asked === undefined) break;
    const key =
      typeof asked === "object" && asked !== null && "key" in asked && typeof asked.key === "string" ? asked.key : "";
    const answer = AnswerSchema.safeParse(host.loadAnswer(key)?.value);
    questions.push({
      n,
      asked,
      ...(answer.success && { answer: answer.data }),
      sent: host.loadNote(sentNote(n)) !== undefined,
    });
  }
  const output = note(OUTPUT_NOTE);
  const error = note(ERROR_NOTE);
  return {
    created: host.loadNote(INSTANCE_NOTE) !== undefined,
    questions,
    ...(output !== undefined && { output }),
    ...(error !== undefined && { error }),
  };
}

/** Creates the instance; one that exists already (a run died after creating it) is taken as is. */
async function ensureInstance(
  workflow: Workflow<TaskWorkflowParams>,
  id: string,
  params: TaskWorkflowParams,
): Promise<void> {
  try {
    await workflow.create({ id, params });
  } catch (error) {
    // Only an existing instance may be taken; anything else is this run's failure.
    await workflow.get(id).catch(() => Promise.reject(error));
  }
}

const statusView = ({ status, output, error }: InstanceStatus): StatusView => ({
  status,
  ...(output !== undefined && { output }),
  ...(error && { error: { message: error.message } }),
});

export function workflowEngine(binding: WorkflowBinding, inputSchema: z.ZodObject): ToolEngine {
  return {
    async runSlice(args, host, env): Promise<RunOutcome> {
      const { principal, taskId } = host;
      if (principal === undefined)
        return { kind: "failed", message: "A Workflow-backed tool runs only as a task.", permanent: true };
      const input = inputSchema.safeParse(args);
      if (!input.success)
        return { kind: "failed", message: `Invalid arguments: ${input.error.message}`, permanent: true };
      const workflow = binding(env);
      const id = instanceIdFor(taskId);
      const { workflowCheckMs, workflowNudge } = readSettings(env);
      const run: RunView = { nudges: workflowNudge, nudged: false, checkBackAt: Date.now() + workflowCheckMs };
      try {
        // Each move is one side effect, marked done before the next is decided (decide.ts).
        for (;;) {
          if (host.signal.aborted) return { kind: "aborted" };
          const move = nextMove(readView(host), run);
          if (move.kind === "end") return move.outcome;
          if (move.kind === "create") {
            await ensureInstance(workflow, id, { taskId, principal, input: input.data });
            host.saveNote(INSTANCE_NOTE, id);
            run.nudged = true; // a new instance starts on its own
          } else if (move.kind === "send") {
            await (await workflow.get(id)).sendEvent({ type: answerEventType(move.n), payload: move.answer });
            host.saveNote(sentNote(move.n), true);
          } else if (move.kind === "nudge") {
            await (await workflow.get(id)).sendEvent({ type: NUDGE_EVENT, payload: null });
            run.nudged = true;
          } else {
            run.status = statusView(await (await workflow.get(id)).status());
          }
        }
      } catch (error) {
        if (host.signal.aborted) return { kind: "aborted" };
        // Retried with the job's backoff (JOB_MAX_ATTEMPTS): the binding may be briefly unreachable.
        return {
          kind: "failed",
          message: `The Workflow could not be reached: ${error instanceof Error ? error.message : String(error)}`,
          permanent: false,
        };
      }
    },

    async stop(env, taskId) {
      const instance = await binding(env)
        .get(instanceIdFor(taskId))
        .catch(() => undefined);
      if (!instance) return; // never created
      const { status } = await instance.status();
      if (status !== "complete" && status !== "errored" && status !== "terminated") await instance.terminate();
    },
  };
}
