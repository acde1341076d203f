/**
 * The task as one JSON document: what `resources/read` of its `task://` URI and `GET /tasks/{id}`
 * return. The fields of `tasks/get`, plus progress, the pending questions (`inputRequests`) while
 * it waits for an answer, the partial output so far (`partial`, once there is any), the attempts of
 * its steps that have options (`steps`) and, once
 * terminal, the result.
 */
import { echoMeta, isTerminal, type TaskSnapshot } from "../core";
import type { JsonObject } from "../json";
import { inputRequestsOf } from "./input-requests";
import { partialField } from "./partial-output";

export function taskDocument(snapshot: TaskSnapshot): JsonObject {
  const meta = echoMeta(snapshot.meta);
  const doc: JsonObject = { ...snapshot.task, tool: snapshot.tool };
  if (snapshot.progress) doc["progress"] = snapshot.progress;
  const inputRequests = inputRequestsOf(snapshot);
  if (inputRequests) doc["inputRequests"] = inputRequests;
  const partial = partialField(snapshot);
  if (partial) doc["partial"] = partial;
  // Steps given options, each with its attempts, durations and last error (bounded: model/step-attempts.ts).
  if (snapshot.steps) doc["steps"] = snapshot.steps;
  // The versions of its tool its runs ran, and the words it was told when a replay did not match its journal.
  if (snapshot.journal) doc["journal"] = { ...snapshot.journal };
  if (isTerminal(snapshot.task.status) && snapshot.outcome) {
    if (snapshot.outcome.kind === "result") doc["result"] = snapshot.outcome.result;
    else doc["error"] = snapshot.outcome.error;
  }
  if (meta) doc["_meta"] = meta;
  return doc;
}
