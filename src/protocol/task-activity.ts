/**
 * What the task card shows besides status: the steps a job finished, its log lines and its partial output, read
 * from the task's event log in pages after a cursor, so each poll reads only what is new.
 */
import { plainText, pieceWords, type TaskEvent } from "../core";

/** Events read per call: a poll normally finds a handful; a card opened late catches up in a few calls. */
export const ACTIVITY_PAGE = 500;

export interface TaskActivity {
  steps: { name: string; at: string }[];
  logs: { level: string; message: string; at: string }[];
  /** Partial output published after the cursor, in words (docs/partial-results.md). */
  partial: { n: number; text: string; at: string }[];
  /** Pass back as `after` to read only what follows. */
  cursor: number;
  /** More events wait past this page: call again at once. */
  more: boolean;
}

export function taskActivity(events: readonly TaskEvent[], after: number, pageSize = ACTIVITY_PAGE): TaskActivity {
  const cursor = events.at(-1)?.seq ?? after;
  const activity: TaskActivity = { steps: [], logs: [], partial: [], cursor, more: events.length >= pageSize };
  for (const event of events) {
    const at = new Date(event.at).toISOString();
    if (event.type === "step") activity.steps.push({ name: event.data.name, at });
    else if (event.type === "log")
      activity.logs.push({ level: event.data.level, message: plainText(event.data.message, { lines: true }), at });
    else if (event.type === "partial") {
      activity.partial.push({ n: event.data.n, text: plainText(pieceWords(event.data.content)), at });
    }
  }
  return activity;
}
