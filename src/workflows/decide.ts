/**
 * The Workflow engine's decisions, pure: from what the task holds (the Workflow's notes, the
 * answers people gave, what the engine already did) and the instance's status if it was read in
 * this run, the next move — create the instance, send an answer, read the status, or end the run
 * (ask, complete, fail, or check back later). One move at a time, so every side effect is marked done
 * in the task before the next is decided, and a run that dies in between repeats only that one.
 */
import * as z from "zod";
import { questionProblem, type InputAnswer, type InputQuestion, type RunOutcome } from "../core";
import type { JsonObject } from "../json";

export const WAITING_MESSAGE = "Running on its Workflow.";

export interface AskedQuestion extends InputQuestion {
  key: string;
}

export interface EngineView {
  created: boolean;
  /** The Workflow's questions in order, each with its answer (stored by the task) and whether it was sent. */
  questions: { n: number; asked: unknown; answer?: InputAnswer; sent: boolean }[];
  output?: unknown;
  error?: unknown;
}

/** The part of InstanceStatus the engine reads. */
export interface StatusView {
  status: string;
  output?: unknown;
  error?: { message: string };
}

/** What this run has learnt and done so far, and when it checks back next if nothing else happens. */
export interface RunView {
  status?: StatusView;
  /**
   * Whether this runtime's Workflows engine needs the nudge (WORKFLOW_NUDGE: local emulation only,
   * docs/workflows.md); deployed, the platform resumes a running instance by itself.
   */
  nudges: boolean;
  /** The instance got its nudge event in this run. */
  nudged: boolean;
  checkBackAt: number;
}

export type Move =
  | { kind: "create" }
  | { kind: "send"; n: number; answer: InputAnswer }
  | { kind: "check" }
  /**
   * An event nothing waits for, sent to an instance that says it runs: wrangler dev's Workflows
   * engine does not resume a running instance after its process was killed until the instance
   * hears from outside (an event or a status change); deployed, the platform resumes it by itself,
   * so only a runtime with WORKFLOW_NUDGE on sends it.
   */
  | { kind: "nudge" }
  | { kind: "end"; outcome: RunOutcome };

const end = (outcome: RunOutcome): Move => ({ kind: "end", outcome });
const failed = (message: string): Move => end({ kind: "failed", message, permanent: true });

/** A Workflow's output as a tool result: ours already is one; anything else becomes its text. */
const ResultSchema = z.looseObject({ content: z.array(z.unknown()) });
export function toResult(output: unknown): JsonObject {
  const result = ResultSchema.safeParse(output);
  if (result.success) return result.data;
  return { content: [{ type: "text", text: typeof output === "string" ? output : (JSON.stringify(output) ?? "") }] };
}

const QuestionSchema = z.object({
  key: z.string(),
  message: z.string(),
  requestedSchema: z.record(z.string(), z.unknown()),
});
function asQuestion(raw: unknown): AskedQuestion | string {
  const parsed = QuestionSchema.safeParse(raw);
  if (!parsed.success) return "a question must be { key, message, requestedSchema }";
  return questionProblem(parsed.data.key, parsed.data) ?? parsed.data;
}

export function nextMove(view: EngineView, { status, nudges, nudged, checkBackAt }: RunView): Move {
  if (!view.created) return { kind: "create" };
  // The end first: an instance that ended (its question answered outside MCP, say) ends its task.
  if (view.output !== undefined) return end({ kind: "completed", result: toResult(view.output) });
  if (view.error !== undefined) return failed(errorText(view.error));
  for (const { n, asked, answer, sent } of view.questions) {
    const question = asQuestion(asked);
    if (typeof question === "string") return failed(`The Workflow asked a question MCP cannot show: ${question}.`);
    if (!answer) return end({ kind: "input", questions: [question] });
    if (!sent) return { kind: "send", n, answer };
  }
  if (!status) return { kind: "check" };
  switch (status.status) {
    case "complete":
      return end({ kind: "completed", result: toResult(status.output) });
    case "errored":
      return failed(`The Workflow failed: ${status.error?.message ?? "no reason given"}.`);
    case "terminated":
      return failed("The Workflow instance was terminated outside MCP.");
    case "running":
    case "queued":
      if (nudges && !nudged) return { kind: "nudge" };
      return end({ kind: "yielded", wakeAt: checkBackAt, statusMessage: WAITING_MESSAGE });
    default:
      return end({ kind: "yielded", wakeAt: checkBackAt, statusMessage: WAITING_MESSAGE });
  }
}

const ErrorSchema = z.object({ message: z.string() });
function errorText(error: unknown): string {
  const parsed = ErrorSchema.safeParse(error);
  return `The Workflow failed: ${parsed.success ? parsed.data.message : String(error)}`;
}
