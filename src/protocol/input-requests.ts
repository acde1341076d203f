/**
 * A task's pending questions on the wire, the same in every era and view: `inputRequests` as
 * `{ <key>: { method: "elicitation/create", params: { mode: "form", message, requestedSchema } } }`
 * (2026 `tasks/get`, `GET /tasks/{id}`, the task as data), and the sentences that tell a model or
 * a person how to answer when their client cannot show the form itself.
 */
import { elicitationRequest, type InputRequest, type TaskSnapshot } from "../core";
import type { JsonObject } from "../json";

export type { InputRequest };

/** The pending questions of a waiting task, or undefined when it waits on none. */
export function inputRequestsOf(
  snapshot: Pick<TaskSnapshot, "inputRequests">,
): Record<string, InputRequest> | undefined {
  const entries = Object.entries(snapshot.inputRequests ?? {});
  if (entries.length === 0) return undefined;
  return Object.fromEntries(entries.map(([key, question]) => [key, elicitationRequest(question)]));
}

/** "confirm (boolean, required), note (string)": a form's fields in a line, for prose. */
export function describeFields(requestedSchema: JsonObject): string {
  const properties = requestedSchema["properties"];
  const required = new Set(Array.isArray(requestedSchema["required"]) ? requestedSchema["required"] : []);
  if (typeof properties !== "object" || properties === null) return "no fields";
  const fields = Object.entries(properties).map(([name, field]: [string, unknown]) => {
    const type =
      typeof field === "object" && field !== null && "type" in field && typeof field.type === "string"
        ? field.type
        : "value";
    const choices =
      typeof field === "object" && field !== null && "enum" in field && Array.isArray(field.enum)
        ? ` one of ${field.enum.map(String).join(" | ")}`
        : "";
    return `${name} (${type}${choices}${required.has(name) ? ", required" : ""})`;
  });
  return fields.length > 0 ? fields.join(", ") : "no fields";
}

/**
 * How a model passes a person's answer on (clients that cannot show the question themselves):
 * ask the person, then call `task_input`. Empty when the task waits on nothing.
 */
export function howToAnswer(snapshot: Pick<TaskSnapshot, "inputRequests" | "task">, baseUrl?: string): string {
  const entries = Object.entries(snapshot.inputRequests ?? {});
  if (entries.length === 0) return "";
  const { taskId } = snapshot.task;
  const questions = entries
    .map(([key, q]) => `"${key}": "${q.message}" — answer fields: ${describeFields(q.requestedSchema)}`)
    .join("; ");
  const [firstKey] = entries[0] ?? [""];
  const example = `{ "taskId": "${taskId}", "inputResponses": { "${firstKey}": { "action": "accept", "content": { ... } } } }`;
  const http = baseUrl
    ? ` (Plain HTTP: POST ${baseUrl}/tasks/${taskId}/input with { "${firstKey}": { "action": ..., "content": ... } }.)`
    : "";
  return `It is waiting for a person's answer to ${entries.length === 1 ? "this question" : "these questions"}: ${questions}. Ask the person, then pass the answer on with the task_input tool: ${example}; use "action": "decline" if they say no, "cancel" if they dismiss it.${http}`;
}
