/**
 * Resources once for both eras: `task://{taskId}` as a template, the caller's tasks as a list (the
 * task card first on the first page), and what reading a URI finds. Each era frames the answer
 * for its wire (2026-07-28 adds caching hints) and says "not found" its own way.
 */
import { TASK_RESOURCE_TEMPLATE, taskResourceUri, type TaskGateway, type TaskSnapshot } from "../core";
import type { JsonObject } from "../json";
import { isTaskCardUri, readTaskCard, servesTaskCard, taskCardResource } from "./task-card";
import { taskDocument } from "./task-document";
import { parseTaskReadUri } from "./partial-output";
import { taskPage } from "./tasks";

/** The task template; `howToWatch` is the era's way to hear of changes ("subscribe to it"). */
export function taskResourceTemplate(howToWatch: string): JsonObject {
  return {
    uriTemplate: TASK_RESOURCE_TEMPLATE,
    name: "task",
    title: "A task's status, progress and result",
    description: `Read it to check on a long tool call; ${howToWatch} to hear when it changes.`,
    mimeType: "application/json",
  };
}

/** One page of `resources/list`: the caller's tasks, the task card first on the first page. */
export async function resourcesPage(
  gateway: TaskGateway,
  params: unknown,
): Promise<{ resources: JsonObject[]; nextCursor?: string }> {
  const { page, firstPage } = await taskPage(gateway, params, "resources/list");
  const tasks = page.tasks.map((task) => ({
    uri: taskResourceUri(task.taskId),
    name: `task-${task.taskId}`,
    title: `Task ${task.taskId} (${task.status})`,
    mimeType: "application/json",
  }));
  return {
    resources: firstPage && servesTaskCard() ? [taskCardResource(), ...tasks] : tasks,
    ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
  };
}

export type ResourceRead =
  | { kind: "card"; contents: JsonObject[] }
  | { kind: "task"; snapshot: TaskSnapshot; document: JsonObject; contents: JsonObject[] }
  /** Not a URI of this server's. */
  | { kind: "unknown_uri" }
  /** A task URI whose `?after=` is not a whole number. */
  | { kind: "bad_after" }
  /** A task URI whose task is unknown, expired or another principal's. */
  | { kind: "not_found" };

export async function readResource(gateway: TaskGateway, uri: string): Promise<ResourceRead> {
  if (isTaskCardUri(uri)) {
    const contents = readTaskCard();
    return contents === undefined ? { kind: "unknown_uri" } : { kind: "card", contents };
  }
  // `task://{id}?after=N`: only the partial pieces after N (docs/partial-results.md).
  const target = parseTaskReadUri(uri);
  if (!target) return { kind: "unknown_uri" };
  if (target === "bad_after") return { kind: "bad_after" };
  const snapshot = await gateway.get(target.taskId, { piecesAfter: target.after ?? 0 });
  if (!snapshot) return { kind: "not_found" };
  const document = taskDocument(snapshot);
  return {
    kind: "task",
    snapshot,
    document,
    contents: [{ uri, mimeType: "application/json", text: JSON.stringify(document) }],
  };
}
