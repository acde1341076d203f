/**
 * SSE event ids that carry their own route, so any isolate can resume a stream from the id alone:
 * `t.<taskId>.<stream>.<seq>` is event `seq` of a task's log as stream `stream` carried it (stream 0
 * is the raw log of `GET /tasks/{id}/events`, others are registered response streams), and
 * `s.<sessionId>.<seq>` an event of a session's GET stream. The one grammar for every event id.
 */

export type EventRoute =
  | { kind: "task"; taskId: string; stream: number; seq: number }
  | { kind: "session"; sessionId: string; seq: number };

/** The stream number of a task's raw event log. */
export const RAW_STREAM = 0;

export const taskEventId = (taskId: string, stream: number, seq: number): string => `t.${taskId}.${stream}.${seq}`;
export const rawEventId = (taskId: string, seq: number): string => taskEventId(taskId, RAW_STREAM, seq);
export const sessionEventId = (sessionId: string, seq: number): string => `s.${sessionId}.${seq}`;

const MAX_ID = 256;
const TASK_ID = /^t\.([0-9a-f]{32})\.(\d{1,9})\.(\d{1,15})$/;
const SESSION_ID = /^s\.([A-Za-z0-9_-]{16,128})\.(\d{1,15})$/;

export function parseEventId(id: string | null | undefined): EventRoute | undefined {
  if (!id || id.length > MAX_ID) return undefined;
  const task = TASK_ID.exec(id);
  if (task?.[1] && task[2] && task[3])
    return { kind: "task", taskId: task[1], stream: Number(task[2]), seq: Number(task[3]) };
  const session = SESSION_ID.exec(id);
  if (session?.[1] && session[2]) return { kind: "session", sessionId: session[1], seq: Number(session[2]) };
  return undefined;
}
