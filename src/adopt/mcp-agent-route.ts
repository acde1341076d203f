/**
 * Which POSTs to an McpAgent's endpoint the engine serves (the McpAgent lane, mcp-agent-lane.ts):
 * a message of a live session (it carries `Mcp-Session-Id`) that is a `tasks/*` request, a call of
 * a durable or check-back tool, a `resources/read` of a task (the `task://` link of a hybrid answer),
 * or a client's answer to a task's question. Everything else (initialize,
 * the adopter's own tools, batches, GET and DELETE) reaches the McpAgent as it would without us.
 * 2025 framing names the method only in the body, so the body is read here, once, and handed on.
 */
import { isRecord } from "../json";
import { parseQuestionRequestId } from "../mcp-2025-11-25/question-ids";

const TASK_METHODS = new Set(["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]);
/** The scheme of a task resource (core/model/ids.ts taskResourceUri). */
const TASK_URI_PREFIX = "task://";

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
  const params = message["params"];
  // The link a hybrid answer carries must be readable by the client that received it.
  if (method === "resources/read")
    return isRecord(params) && typeof params["uri"] === "string" && params["uri"].startsWith(TASK_URI_PREFIX);
  if (method !== "tools/call") return false;
  return isRecord(params) && typeof params["name"] === "string" && served(params["name"]);
}

/**
 * A batch holding a message the engine would serve: batches reach the McpAgent, which knows none of
 * our methods, so such a batch is answered here with words instead of its "Method not found".
 */
export const isBatchWithEngineMessage = (message: unknown, served: (tool: string) => boolean): boolean =>
  Array.isArray(message) && message.some((item) => isEngineMessage(item, served));

/** The session a POST to the McpAgent's path names, when it is one the engine may serve. */
export function agentSessionOf(request: Request, path: string): string | undefined {
  if (request.method !== "POST" || new URL(request.url).pathname !== path) return undefined;
  const sessionId = request.headers.get("mcp-session-id")?.trim();
  // agents names sessions by a Durable Object id: 64 hex digits. Anything else is not one of its sessions.
  return sessionId !== undefined && /^[0-9a-f]{64}$/.test(sessionId) ? sessionId : undefined;
}

/**
 * A request agents' `serve(path)` answers as its MCP endpoint (its URLPattern: the path exactly, or
 * every path for "/"): the lane holds all of them to the engine's guards, not only the ones it serves.
 */
export const isAgentPath = (pathname: string, path: string): boolean => path === "/" || pathname === path;
