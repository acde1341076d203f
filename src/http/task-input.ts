/**
 * `POST /tasks/{taskId}/input`: answers a task's pending questions over plain HTTP, for a chat
 * button, a script or the task console, with no MCP client at all. The body is
 * `{ <key>: { "action": "accept" | "decline" | "cancel", "content"?: { ... } } }`, the keys being
 * those of the task's `inputRequests` (GET /tasks/{taskId}). Same auth as everything under /tasks.
 */
import type { Context } from "hono";
import { TaskGateway, isTaskId } from "../core";
import { gatewayBindings } from "../principals/principal-indexes";
import { isRecord } from "../json";
import { taskDocument } from "../protocol/task-document";
import { readBodyWithLimit } from "./body";
import { parseJsonInput } from "./json-input";
import { hasJsonContentType } from "./media-types";
import type { TaskRoutesEnv } from "./env";

const MAX_INPUT_BODY = 64 * 1024;

const problem = (
  status: 400 | 404 | 409 | 413 | 415 | 422,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
) => Response.json({ error, message, ...extra }, { status });

export const noSuchTask = () => problem(404, "not_found", "No such task. Tasks are deleted once their ttl has passed.");

export async function answerTaskInput(c: Context<TaskRoutesEnv>): Promise<Response> {
  const taskId = c.req.param("taskId");
  if (taskId === undefined || !isTaskId(taskId)) return noSuchTask();
  if (!hasJsonContentType(c.req.raw)) {
    return problem(
      415,
      "unsupported_media_type",
      'Send the answers as JSON with Content-Type: application/json: { "<key>": { "action": "accept", "content": { ... } } }.',
    );
  }
  const body = await readBodyWithLimit(c.req.raw, Math.min(MAX_INPUT_BODY, c.get("settings").maxBodyBytes));
  if (!body.ok) return problem(body.status, body.status === 413 ? "too_large" : "bad_body", body.message);
  const json = parseJsonInput(body.text);
  if (!json.ok)
    return json.reason === "parse"
      ? problem(400, "bad_json", "The body is not valid JSON.")
      : problem(400, "too_deep", json.message);
  const responses = json.value;
  if (!isRecord(responses) || Object.keys(responses).length === 0) {
    return problem(
      400,
      "bad_body",
      'The body must be a JSON object of answers by question key: { "<key>": { "action": "accept" | "decline" | "cancel", "content"?: { ... } } }. The keys are those of the task\'s inputRequests (GET /tasks/{taskId}).',
    );
  }
  const outcome = await new TaskGateway(gatewayBindings(c.env), c.get("settings"), c.get("principal")).answer(
    taskId,
    responses,
  );
  if (!outcome.ok) {
    switch (outcome.reason) {
      case "not_found":
        return noSuchTask();
      case "terminal":
        return problem(
          409,
          "task_finished",
          `The task is already ${outcome.snapshot.task.status}; it no longer takes answers.`,
          { task: taskDocument(outcome.snapshot) },
        );
      case "invalid":
        return problem(
          422,
          "invalid_answer",
          `The answer to "${outcome.key}" does not fit its question: ${outcome.message}. Nothing was taken; the task still waits.`,
          { key: outcome.key },
        );
    }
  }
  const { accepted, ignored, snapshot } = outcome;
  const message =
    accepted.length > 0
      ? `Answer${accepted.length === 1 ? "" : "s"} to ${accepted.map((key) => `"${key}"`).join(", ")} taken; the task goes on.`
      : "No question with these keys is waiting for an answer (never asked, or already answered); nothing changed.";
  return c.json({ accepted, ignored, message, task: taskDocument(snapshot) });
}
