/**
 * The TaskObject's readers' side: what its feed (streams/task-feed.ts) reads of the task to serve
 * a reader (the event log, the meta, an adapter-state entry for a resume), and the
 * `GET /tasks/{id}/events` view it frames events with.
 */
import type { EventStreamView } from "../../streams/event-stream-frames";
import type { FeedSubject } from "../../streams/task-feed";
import { STATE_SPANS_FIELD } from "./adapter-state";
import { echoMeta } from "../model/meta";
import { isTerminal, type TaskRecord } from "../model/record";
import type { TaskStorage } from "./storage";

/**
 * What `GET /tasks/{id}/events` shows (its documented event names). Questions and answers stay out:
 * the `status` event says the task waits and what it asks, and `GET /tasks/{id}` has the form.
 */
const EVENT_STREAM_TYPES: ReadonlySet<string> = new Set(["status", "progress", "step", "log", "partial", "result"]);

/** The view of a task's event stream: fixed at creation, so a TaskObject builds it once. */
export function eventStreamView(record: TaskRecord | undefined): EventStreamView {
  const statusMeta = record && echoMeta(record.meta);
  return { taskId: record?.taskId ?? "", ...(statusMeta && { statusMeta }), shown: EVENT_STREAM_TYPES };
}

/** What a reader of `record` reads; undefined for an unknown or expired task (the feed answers 404). */
export function feedSubject(
  storage: TaskStorage,
  record: TaskRecord | undefined,
  view: EventStreamView,
): FeedSubject | undefined {
  if (!record) return undefined;
  return {
    view,
    meta: record.meta,
    ended: isTerminal(record.status),
    lastSeq: () => storage.lastSeq(),
    eventsAfter: (seq, limit) => storage.eventsAfter(seq, limit),
    lookupState: (kind, key) => {
      const entry = storage.state.entry(kind, key);
      return entry && { ...entry.value, [STATE_SPANS_FIELD]: entry.spans };
    },
  };
}
