/**
 * The client's answers to a task's questions: JSON-RPC responses to our `elicitation/create`
 * requests, POSTed to /mcp (by any client, to any isolate). Their ids name the task and the
 * question (question-ids.ts), so each goes straight to that task through the caller's gateway:
 * another principal's task is an unknown one. Responses to anything else pass through untouched.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { TaskGateway } from "../core";
import { ErrorCode, jsonRpcErrorResponse } from "../protocol/errors";
import { parseQuestionRequestId } from "./question-ids";

export interface RoutedAnswers {
  /** The messages that were not answers to a task's question. */
  rest: JSONRPCMessage[];
  /** Why an answer was not taken (the first such), as the HTTP answer to a POST of only responses. */
  refusal?: Response;
}

export async function routeAnswers(messages: readonly JSONRPCMessage[], gateway: TaskGateway): Promise<RoutedAnswers> {
  const rest: JSONRPCMessage[] = [];
  const refusals: Response[] = [];
  await Promise.all(
    messages.map(async (message) => {
      const route = "id" in message && !("method" in message) ? parseQuestionRequestId(message.id) : undefined;
      if (!route) {
        rest.push(message);
        return;
      }
      // A client that could not ask its user (no handler, an error) leaves the question waiting: other ways may answer it.
      if (!("result" in message)) return;
      const outcome = await gateway.answer(route.taskId, { [route.key]: message.result });
      if (outcome.ok) return;
      switch (outcome.reason) {
        case "not_found":
          refusals.push(
            jsonRpcErrorResponse(
              400,
              ErrorCode.InvalidParams,
              `No task waits for this answer (unknown, expired or not yours): the response's id names no question of yours.`,
            ),
          );
          return;
        case "terminal":
          refusals.push(
            jsonRpcErrorResponse(
              409,
              ErrorCode.InvalidParams,
              `Task ${route.taskId} is already ${outcome.snapshot.task.status}; it no longer takes answers.`,
            ),
          );
          return;
        case "invalid":
          refusals.push(
            jsonRpcErrorResponse(
              400,
              ErrorCode.InvalidParams,
              `The answer to "${route.key}" does not fit its question: ${outcome.message}. Nothing was taken; the task still waits.`,
            ),
          );
          return;
      }
    }),
  );
  return { rest, ...(refusals[0] && { refusal: refusals[0] }) };
}
