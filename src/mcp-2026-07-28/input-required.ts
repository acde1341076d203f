/**
 * Questions inside a call that is not a task (2026-07-28 multi round-trip, basic/patterns/mrtr.mdx):
 * a plain `tools/call` whose task asks answers `resultType: "input_required"` with the task's
 * `inputRequests` and a `requestState`; the client asks its user and retries the same call with
 * `inputResponses` and that `requestState`, which continues the same task (durably: the task, not
 * the request, holds the job) and answers inline, again `input_required`, or with the fallback
 * link if it then runs long. Only a client that declared elicitation on the request is asked so
 * (a server MUST NOT send requests the client has not declared); any other gets the fallback,
 * which shows the question and how to pass the answer on. A retry that cancels a question (the
 * client could not ask anyone: `claude -p` does so at once) is an answer like any other: the job
 * reads `cancel` and ends saying nobody answered (deploy: "Not deployed: nobody answered …").
 */
import type { InputResponsesV2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { isTerminal, type TaskSnapshot } from "../core";
import { isRecord, type JsonObject } from "../json";
import type { CallNotifier } from "./call-notifications";
import { callResult, stillRunningFallback } from "./call-results";
import type { Context20260728 } from "./context";
import type { RequestEnvelope } from "./envelope";
import { invalidParams } from "../protocol/errors";
import { followCall } from "./follow-call";
import { openRequestStateCall, sealRequestState, type StateCall } from "./request-state";
import { pendingInputRequests } from "./task-wire";

/** The client declared form-mode elicitation on this request (`elicitation: {}` means form). */
export function canElicit(envelope: RequestEnvelope): boolean {
  const elicitation = envelope.capabilities["elicitation"];
  return isRecord(elicitation) && (isRecord(elicitation["form"]) || !isRecord(elicitation["url"]));
}

const unknownState = () =>
  invalidParams(
    "requestState was not issued by this server for this call (or it has expired): call the tool again without it.",
  );

/** The InputRequiredResult for a call whose task waits on questions. */
/** The call a requestState is sealed for: its tool, its arguments, and whether it created its task. */
type AskedCall = Omit<StateCall, "taskId">;

export async function inputRequired(
  ctx: Context20260728,
  snapshot: TaskSnapshot,
  call: AskedCall,
): Promise<JsonObject> {
  const requestState = await sealRequestState(ctx.gateway, { taskId: snapshot.task.taskId, ...call });
  // The task is gone (it expired this instant): answer as if it had ended.
  if (requestState === undefined) throw unknownState();
  return { resultType: "input_required", inputRequests: pendingInputRequests(snapshot), requestState };
}

export interface Retry {
  tool: string;
  args: unknown;
  requestState: string;
  inputResponses?: InputResponsesV2;
}

/** A retry that carries a requestState: answer the call's task, then wait for it as the first call did. */
export async function continueCall(ctx: Context20260728, retry: Retry, notifier: CallNotifier): Promise<JsonObject> {
  const opened = await openRequestStateCall(ctx.gateway, retry.requestState, { tool: retry.tool, args: retry.args });
  if (opened === undefined) throw unknownState();
  const { taskId, owned } = opened;
  const call = { tool: retry.tool, args: retry.args, owned };
  let snapshot: TaskSnapshot | undefined;
  const answers = retry.inputResponses ?? {};
  if (Object.keys(answers).length > 0) {
    const answered = await ctx.gateway.answer(taskId, answers);
    if (!answered.ok) {
      if (answered.reason === "not_found") throw unknownState();
      if (answered.reason === "invalid")
        throw invalidParams(
          `The answer to "${answered.key}" does not fit its question: ${answered.message}. Nothing was taken; ask again and retry with a corrected answer.`,
        );
      // The task ended meanwhile (cancelled, say): the call answers with how it ended.
      snapshot = answered.snapshot;
    } else snapshot = answered.snapshot;
  } else {
    snapshot = await ctx.gateway.get(taskId);
    if (!snapshot) throw unknownState();
  }
  return answerWith(ctx, snapshot, call, notifier);
}

/** The call's answer from its task's state: its result, its remaining questions, or the wait and then either (or the link). */
async function answerWith(
  ctx: Context20260728,
  snapshot: TaskSnapshot,
  call: AskedCall,
  notifier: CallNotifier,
): Promise<JsonObject> {
  if (isTerminal(snapshot.task.status) && snapshot.outcome) return callResult(snapshot, snapshot.outcome);
  // Questions still unanswered: ask for them again rather than fail (mrtr.mdx, "Error Handling").
  if (snapshot.task.status === "input_required")
    return canElicit(ctx.envelope) ? inputRequired(ctx, snapshot, call) : stillRunningFallback(snapshot, ctx.baseUrl);
  // The retry continues the call that was asked: it stops the task on leaving only if that call created it.
  const deadline = Date.now() + ctx.settings.inlineWaitMs;
  const followed = await followCall(ctx, snapshot, notifier, deadline, { cancelOnLeave: call.owned === true });
  if (followed.kind === "result") return callResult(snapshot, followed.outcome);
  const latest = (await ctx.gateway.get(snapshot.task.taskId)) ?? snapshot;
  if (isTerminal(latest.task.status) && latest.outcome) return callResult(latest, latest.outcome);
  if (latest.task.status === "input_required" && canElicit(ctx.envelope)) return inputRequired(ctx, latest, call);
  return stillRunningFallback(latest, ctx.baseUrl);
}
