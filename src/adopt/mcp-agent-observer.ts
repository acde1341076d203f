/**
 * The McpAgent lane's half of "who hears what" (docs/streams.md): a task created in an McpAgent
 * session is followed by that session (SESSION_FEED_STATE, set by the 2025-11-25 tool handler as
 * for the template's own sessions), and what no open response stream of the session carries goes
 * to its GET stream, through the session's agent (TaskMcpAgent.deliverTaskMessages). Questions are
 * not put on the GET stream: a `tasks/result` asks them (the SDK v1 client calls it at
 * input_required), and POST /tasks/{id}/input answers them too.
 */
import { getAgentByName } from "agents";
import type { TaskObserver } from "../core";
import { isRecord } from "../json";
import { sessionMessageForEvent } from "../mcp-2025-11-25/task-messages";
import {
  RESPONSE_STREAM_STATE,
  SESSION_FEED_STATE,
  SessionFeedSchema,
  takenByResponseStream,
} from "../mcp-2025-11-25/task-streams";
import type { TaskMcpAgent } from "./mcp-agent";

/** The binding of the Worker's McpAgent class, as `mcpAgentTasks(tasks).serve` was given it (once per isolate, at load). */
let recordedBinding: string | undefined;

export function recordAgentBinding(binding: string): void {
  if (recordedBinding !== undefined && recordedBinding !== binding)
    throw new Error(
      `mcpAgentTasks(tasks).serve was called for two McpAgent bindings (${recordedBinding} then ${binding}); durable tasks follow one McpAgent class per Worker.`,
    );
  recordedBinding = binding;
}

/** agents names a streamable HTTP session's object so (agents/mcp, createStreamingHttpHandler). */
export const agentObjectName = (sessionId: string) => `streamable-http:${sessionId}`;

/** A session that ended (DELETE): its task stops waking its object (which agents tore down). */
const ENDED_STATE = "mcp-agent/ended";

export function isAgentNamespace(value: unknown): value is DurableObjectNamespace<TaskMcpAgent> {
  return isRecord(value) && typeof value["idFromName"] === "function" && typeof value["get"] === "function";
}

export const agentSessionObserver: TaskObserver = async ({ env, record, events, state }) => {
  const feeds = state.list(SESSION_FEED_STATE);
  if (feeds.length === 0 || recordedBinding === undefined) return;
  const namespace: unknown = Reflect.get(env, recordedBinding);
  if (!isAgentNamespace(namespace)) {
    console.error(`mcp-task-worker: the McpAgent binding ${recordedBinding} is missing; task messages not delivered.`);
    return;
  }
  const streams = state.list(RESPONSE_STREAM_STATE);
  await Promise.all(
    feeds.map(async ({ key: sessionId, value }) => {
      const feed = SessionFeedSchema.safeParse(value);
      if (!feed.success || state.lookup(ENDED_STATE, sessionId) !== undefined) return;
      const getFeed = { ...feed.data, questions: false };
      const messages: string[] = [];
      for (const event of events) {
        if (takenByResponseStream(event, sessionId, streams)) continue;
        const message = sessionMessageForEvent(event, record.taskId, record.meta, getFeed);
        if (message) messages.push(JSON.stringify(message));
      }
      if (messages.length === 0) return;
      const agent = await getAgentByName(namespace, agentObjectName(sessionId));
      if (!(await agent.deliverTaskMessages(messages))) state.attach(ENDED_STATE, {}, sessionId);
    }),
  );
};
