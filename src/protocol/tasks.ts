/**
 * The task methods once for both eras: tasks/get's lookup, tasks/cancel's outcome and one page of
 * the caller's tasks (tasks/list, resources/list). Each era frames the answer for its wire.
 */
import type { TaskGateway, TaskPage, TaskSnapshot } from "../core";
import { invalidCursor, taskNotFound } from "./errors";
import { cursorOf } from "./params";

/** The caller's task, or the one not-found error for unknown, expired and foreign tasks alike. */
export async function requireTask(gateway: TaskGateway, taskId: string): Promise<TaskSnapshot> {
  const snapshot = await gateway.get(taskId);
  if (!snapshot) throw taskNotFound();
  return snapshot;
}

export type CancelResult =
  /** The task was working or waiting for input, and is cancelled now. */
  | { kind: "cancelled"; snapshot: TaskSnapshot }
  /** It had already ended, and keeps its ending (2025 refuses; 2026 acknowledges all the same). */
  | { kind: "already_ended" };

export async function cancelTask(gateway: TaskGateway, taskId: string): Promise<CancelResult> {
  const outcome = await gateway.cancel(taskId);
  if (outcome.ok) return { kind: "cancelled", snapshot: outcome.snapshot };
  if (outcome.reason === "not_found") throw taskNotFound();
  return { kind: "already_ended" };
}

/** The page of the caller's tasks a list request's cursor names (`method` for the invalid-cursor error). */
export async function taskPage(
  gateway: TaskGateway,
  params: unknown,
  method: string,
): Promise<{ page: TaskPage; firstPage: boolean }> {
  const cursor = cursorOf(params);
  const page = cursor.ok ? await gateway.list(cursor.cursor) : undefined;
  if (!cursor.ok || !page) throw invalidCursor(method);
  return { page, firstPage: cursor.cursor === undefined };
}
