/**
 * Which POSTs to an McpAgent's endpoint the engine serves (the McpAgent lane, mcp-agent-lane.ts):
 * a message of a live session (it carries `Mcp-Session-Id`) that is a `tasks/*` request, a call of
 * a durable or check-back tool, or a client's answer to a task's question. Everything else (initialize,
 * the adopter's own tools, batches, GET and DELETE) reaches the McpAgent as it would without us.
 * 2025 framing names the method only in the body, so the body is read here, once, and handed on.
 */
import { isRecord } from "../json";
import { parseQuestionRequestId } from "../mcp-2025-11-25/question-ids";

const TASK_METHODS = new Set(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]);

/** `served`: whether the engine answers a call of this tool (the durable tools and the check-back tools). */
export function isEngineMessage(message: unknown, served: (tool: string) => boolean): boolean {
  if (!isRecord(message) || message["jsonrpc"] !== "2.0") return false;
  const method = message["method"];
  if (typeof method !== "string") {
    // A response: ours only when it answers a task's question (its id names the task and the question).
    return ("result" in message || "error" in message) && parseQuestionRequestId(message["id"]) !== undefined;
  }
  if (!("id" in message)) return false;
  if (TASK_METHODS.has(method)) return true;
  if (method !== "tools/call") return false;
  const params = message["params"];
  return isRecord(params) && typeof params["name"] === "string" && served(params["name"]);
}

/** The session a POST to the McpAgent's path names, when it is one the engine may serve. */
export function agentSessionOf(request: Request, path: string): string | undefined {
  if (request.method !== "POST" || new URL(request.url).pathname !== path) return undefined;
  const sessionId = request.headers.get("mcp-session-id")?.trim();
  // agents names sessions by a Durable Object id: 64 hex digits. Anything else is not one of its sessions.
  return sessionId !== undefined && /^[0-9a-f]{64}$/.test(sessionId) ? sessionId : undefined;
}
