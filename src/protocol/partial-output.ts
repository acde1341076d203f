/**
 * Partial output on the readers' surfaces (docs/partial-results.md): the task document's `partial`
 * field, the `after` a reader passes to get only what is new (`GET /tasks/{id}?after=N`,
 * `task://{id}?after=N`), and the `_meta` key 2026 `tasks/get` carries it under.
 */
import { plainText, MAX_PARTIAL_PIECES, parseTaskResourceUri, type TaskSnapshot } from "../core";
import type { JsonObject } from "../json";

/** Our `_meta` key for partial output on 2026 `tasks/get` and `notifications/tasks` (docs/protocol.md). */
export const PARTIAL_META = "mcp-task-worker/partial";

const AFTER = /^(?:0|[1-9]\d{0,5})$/;

/** `after` as a reader wrote it: a whole number from 0; undefined when absent, "bad" when malformed. */
export function parseAfter(raw: string | undefined): number | "bad" | undefined {
  if (raw === undefined) return undefined;
  if (!AFTER.test(raw)) return "bad";
  return Math.min(Number(raw), MAX_PARTIAL_PIECES);
}

export const BAD_AFTER =
  "after must be a whole number from 0 (the number of the last partial piece you have); leave it out for all of them.";

/** A task resource URI, plain or with `?after=N`: its task id and `after`; undefined if it is neither. */
export function parseTaskReadUri(uri: string): { taskId: string; after?: number } | "bad_after" | undefined {
  const [base = "", query] = uri.split("?", 2);
  const taskId = parseTaskResourceUri(base);
  if (!taskId) return undefined;
  if (query === undefined) return { taskId };
  const match = /^after=([^&]*)$/.exec(query);
  const after = parseAfter(match?.[1]);
  if (after === undefined || after === "bad") return "bad_after";
  return { taskId, after };
}

/**
 * The task document's `partial` field: how many pieces there are and, when the reader got them
 * (the document of `resources/read` and `GET /tasks/{id}`), those after `after`, in order.
 */
export function partialField(snapshot: TaskSnapshot): JsonObject | undefined {
  const count = snapshot.partial?.pieces ?? 0;
  // A task that never published has no such field: its document stays as it was.
  if (count === 0) return undefined;
  const shown = snapshot.pieces ? { after: snapshot.piecesAfter ?? 0, pieces: snapshot.pieces } : {};
  return { count, ...shown };
}

/** What 2026 `tasks/get` carries under PARTIAL_META: the count and the newest pieces in words. */
export function partialMeta(snapshot: TaskSnapshot): JsonObject | undefined {
  const partial = snapshot.partial;
  if (!partial || partial.pieces === 0) return undefined;
  return { count: partial.pieces, newest: partial.newest.map(({ n, text }) => ({ n, text: plainText(text) })) };
}

/** `{ [PARTIAL_META]: … }` for a `_meta` object, or nothing when the task has published nothing. */
export function withPartialMeta(snapshot: TaskSnapshot): JsonObject {
  const meta = partialMeta(snapshot);
  return meta ? { [PARTIAL_META]: meta } : {};
}
