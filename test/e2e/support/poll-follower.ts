/**
 * A 2026-07-28 client that follows a task the way interactive Claude Code does: it starts a
 * `countdown` as a task, then calls `tasks/get` only at the `pollIntervalMs` it was last told,
 * until the task ends. Counts the polls and how late the end was seen. No imports of ours, so the
 * bench (plain Node) and the e2e tests share it.
 */

const MODERN = "2026-07-28";

export interface FollowedTask {
  taskId: string;
  status: string;
  /** `tasks/get` calls made. */
  gets: number;
  /** From the task's end (its terminal `lastUpdatedAt`) to the start of the poll that saw it. */
  lateMs: number;
  /** The same to that poll's reply. */
  lateReplyMs: number;
  /** Every interval told, the creation's first. */
  told: number[];
}

type Json = Record<string, unknown>;

async function call(baseUrl: string, method: string, params: Json, name: string, token?: string): Promise<Json> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "poll-follower", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
  };
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": method,
    "Mcp-Name": name,
  };
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  // A reply may come as JSON or as one SSE message.
  const json = text.trimStart().startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6) ?? "");
  const parsed = JSON.parse(json) as { result?: Json; error?: { message?: string } };
  if (!parsed.result)
    throw new Error(`${method}: ${parsed.error?.message ?? `HTTP ${response.status}: ${text.slice(0, 300)}`}`);
  return parsed.result;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

export interface FollowOptions {
  token?: string;
  /** Poll every this many ms whatever the server says (a client with a fixed interval, for comparison). */
  fixedMs?: number;
}

/** Starts `countdown { seconds }` as a task and follows it to its end. */
export async function followTask(
  baseUrl: string,
  seconds: number,
  { token, fixedMs }: FollowOptions = {},
): Promise<FollowedTask> {
  const created = await call(baseUrl, "tools/call", { name: "countdown", arguments: { seconds } }, "countdown", token);
  if (created["resultType"] !== "task")
    throw new Error(`expected a task, got ${JSON.stringify(created).slice(0, 300)}`);
  const taskId = String(created["taskId"]);
  const told = [Number(created["pollIntervalMs"])];
  for (let gets = 1; ; gets++) {
    await wait(fixedMs ?? told.at(-1) ?? 1000);
    const sentAt = Date.now();
    const task = await call(baseUrl, "tasks/get", { taskId }, taskId, token);
    const status = String(task["status"]);
    if (TERMINAL.has(status)) {
      const endedAt = Date.parse(String(task["lastUpdatedAt"]));
      return { taskId, status, gets, lateMs: sentAt - endedAt, lateReplyMs: Date.now() - endedAt, told };
    }
    told.push(Number(task["pollIntervalMs"]));
  }
}
