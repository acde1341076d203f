/**
 * The peers section's one client: JSON-RPC over `node:http`, the same for every server. It sends
 * what a real client sends (`Accept: application/json, text/event-stream`, a session id once one
 * was given) and reads either answer: a JSON body, or an SSE body up to the response to its id.
 * node:http, not undici's fetch: fetch costs the client ~1.2 ms more per request on these shared
 * cores and asks for gzip, a constant on both sides of every ratio that pulls it toward 1.
 */
import { Agent, request } from "node:http";

export interface RpcTarget {
  url: string;
  /** Kept-alive connections: one socket for latency samples, a pool for concurrency runs. */
  agent: Agent;
  /** `Mcp-Session-Id` for servers that hand one out at `initialize` (McpAgent). */
  sessionId?: string;
}

export interface RpcAnswer {
  ms: number;
  result: Record<string, unknown>;
  sessionId?: string;
}

/** One socket, reused: each latency sample measures the request, not a TCP handshake. */
export const oneSocket = (): Agent => new Agent({ keepAlive: true, maxSockets: 1 });
/** As many sockets as requests in flight, each kept for the next burst. */
export const socketPool = (): Agent => new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

let nextId = 1;

/** GET `${url}${path}` to the end of its body; resolves with the time it took. */
export function get(target: RpcTarget, path: string): Promise<number> {
  return send(target, "GET", path);
}

/** `method` `${url}${path}` with no body, to the end of its answer; resolves with the time it took. */
export function send(target: RpcTarget, method: string, path: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${target.url}${path}`, { agent: target.agent, method }, (response) => {
      response.resume();
      response.on("end", () =>
        response.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`${method} ${path}: HTTP ${response.statusCode}`)),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A JSON-RPC notification (no answer awaited beyond the HTTP status). */
export function notify(target: RpcTarget, method: string): Promise<void> {
  return post(target, JSON.stringify({ jsonrpc: "2.0", method })).then(() => undefined);
}

/** A JSON-RPC request to `${url}/mcp`; rejects on a JSON-RPC error or an HTTP failure. */
export async function rpc(
  target: RpcTarget,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const id = nextId++;
  const started = performance.now();
  const { status, text, contentType, sessionId } = await post(
    target,
    JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    headers,
  );
  const ms = performance.now() - started;
  const message = contentType.includes("text/event-stream") ? responseInSse(text, id) : parse(text);
  if (message?.result !== undefined)
    return { ms, result: message.result, ...(sessionId !== undefined && { sessionId }) };
  throw new Error(
    `${method} on ${target.url}: ${message?.error?.message ?? `HTTP ${status}, no JSON-RPC result: ${text.slice(0, 200)}`}`,
  );
}

interface JsonRpcResponse {
  id?: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

function parse(text: string): JsonRpcResponse | undefined {
  try {
    return JSON.parse(text) as JsonRpcResponse;
  } catch {
    return undefined;
  }
}

/** The `data:` of the SSE event that answers `id` (progress notifications before it are skipped). */
function responseInSse(text: string, id: number): JsonRpcResponse | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const message = parse(line.slice(5).trim());
    if (message?.id === id) return message;
  }
  return undefined;
}

const TASKS_EXTENSION = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/**
 * The same request in the 2026-07-28 era: the per-request `_meta` envelope (declaring the Tasks
 * extension, so a task-capable tool answers with a task) and the standard headers. `name` is the
 * request's `Mcp-Name` (the tool, or the task id).
 */
export function rpcModern(
  target: RpcTarget,
  method: string,
  params: Record<string, unknown>,
  name?: string,
): Promise<RpcAnswer> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "peers-bench", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": TASKS_EXTENSION,
  };
  return rpc(
    target,
    method,
    { ...params, _meta: meta },
    { "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method, ...(name !== undefined && { "Mcp-Name": name }) },
  );
}

/** GET `${url}${path}` until `until` holds for the text so far (the rest is still read, so the socket is reused); its time. */
export function getUntil(
  target: RpcTarget,
  path: string,
  headers: Record<string, string>,
  until: (text: string) => boolean,
): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${target.url}${path}`, { agent: target.agent, headers }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`GET ${path}: HTTP ${response.statusCode}`));
      let text = "";
      let at: number | undefined;
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (at !== undefined) return;
        text += chunk;
        if (until(text)) at = performance.now() - started;
      });
      response.on("end", () =>
        at !== undefined ? resolve(at) : reject(new Error(`GET ${path}: ended before the awaited moment`)),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function post(
  target: RpcTarget,
  body: string,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; text: string; contentType: string; sessionId?: string }> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
    ...extraHeaders,
    "Content-Length": String(Buffer.byteLength(body)),
  };
  if (target.sessionId !== undefined) headers["Mcp-Session-Id"] = target.sessionId;
  return new Promise((resolve, reject) => {
    const req = request(`${target.url}/mcp`, { method: "POST", agent: target.agent, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        const session = response.headers["mcp-session-id"];
        resolve({
          status: response.statusCode ?? 0,
          text,
          contentType: response.headers["content-type"] ?? "",
          ...(typeof session === "string" && { sessionId: session }),
        });
      });
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The task id of a task-augmented `tools/call`'s answer; throws naming the server if there is none. */
export function taskIdOf(result: Record<string, unknown>, url: string): string {
  const task = result["task"];
  const taskId = typeof task === "object" && task !== null && "taskId" in task ? task.taskId : undefined;
  if (typeof taskId !== "string")
    throw new Error(`no task in the answer of ${url}: ${JSON.stringify(result).slice(0, 200)}`);
  return taskId;
}

/** Awaits `tasks/result` of every task, 50 at a time on a pool of sockets, so none is left running. */
export async function awaitResults(url: string, taskIds: readonly string[]): Promise<void> {
  const pool = { url, agent: socketPool() };
  for (let i = 0; i < taskIds.length; i += 50)
    await Promise.all(taskIds.slice(i, i + 50).map((taskId) => rpc(pool, "tasks/result", { taskId })));
  pool.agent.destroy();
}
