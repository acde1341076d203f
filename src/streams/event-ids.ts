/**
 * SSE event ids that carry their own route: any isolate can resume a stream from the
 * id alone. `t.<taskId>.<stream>.<seq>` names a task response stream; `s.<sessionId>.<seq>`
 * a session's GET stream; `x.<random>.<n>` an unresumable one-off response.
 */
import { isTaskId } from "../core/ids";

export type EventRoute =
  | { kind: "task"; taskId: string; stream: number; seq: number }
  | { kind: "session"; sessionId: string; seq: number };

export const taskEventId = (taskId: string, stream: number, seq: number): string => `t.${taskId}.${stream}.${seq}`;
export const sessionEventId = (sessionId: string, seq: number): string => `s.${sessionId}.${seq}`;

const MAX_ID = 256;

export function parseEventId(id: string | null | undefined): EventRoute | undefined {
  if (!id || id.length > MAX_ID) return undefined;
  const task = /^t\.([0-9a-f]{32})\.(\d{1,9})\.(\d{1,15})$/.exec(id);
  if (task?.[1] && task[2] && task[3] && isTaskId(task[1])) {
    return { kind: "task", taskId: task[1], stream: Number(task[2]), seq: Number(task[3]) };
  }
  const session = /^s\.([A-Za-z0-9_-]{16,128})\.(\d{1,15})$/.exec(id);
  if (session?.[1] && session[2]) return { kind: "session", sessionId: session[1], seq: Number(session[2]) };
  return undefined;
}
