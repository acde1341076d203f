/**
 * Helpers for the 2026-07-28 era: raw requests with the per-request envelope and the standard
 * headers (each of which a test can drop or override), an SSE reader, the SDK v2 client, and the
 * raw dispatch the ext-tasks requester needs for Tasks-extension traffic.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";
import { isJsonValue } from "@modelcontextprotocol/ext-tasks/core";
import { ErrorV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { parseSse } from "./mcp";

type JsonRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A JSON object from the wire (anything else is a test failure worth its text). */
function jsonObject(text: string): JsonRecord {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value)) throw new Error(`expected a JSON object, got ${text.slice(0, 200)}`);
  return value;
}

export const MODERN = "2026-07-28";
export const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
export const CLIENT_INFO = { name: "e2e-2026", version: "1.0.0" };

/** Which body field `Mcp-Name` mirrors. */
const NAME_FIELD: Record<string, string> = {
  "tools/call": "name",
  "resources/read": "uri",
  "prompts/get": "name",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** A header value as a 2026 client sends it: plain when safe, else the Base64 sentinel. */
export function headerValue(value: string): string {
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !/^=\?base64\?.*\?=$/.test(value);
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

export interface ModernOptions {
  id?: string | number;
  capabilities?: Record<string, unknown>;
  /** Extra `_meta` keys (progressToken, logLevel, ...); `null` removes a key. */
  meta?: Record<string, unknown>;
  /** Header overrides; `null` removes a header. */
  headers?: Record<string, string | null>;
  token?: string;
  signal?: AbortSignal;
}

export interface ModernReply {
  status: number;
  headers: Headers;
  /** The JSON body, or for a stream, the message that answers the request. */
  body: Record<string, unknown> | undefined;
  /** Every message of a stream (notifications, then the response). */
  messages: Record<string, unknown>[];
  text: string;
}

export function modernBody(
  method: string,
  params: Record<string, unknown> = {},
  options: ModernOptions = {},
): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? {},
  };
  for (const [key, value] of Object.entries(options.meta ?? {})) {
    if (value === null) delete meta[key];
    else meta[key] = value;
  }
  return { jsonrpc: "2.0", id: options.id ?? 1, method, params: { ...params, _meta: meta } };
}

export function modernHeaders(body: Record<string, unknown>, options: ModernOptions = {}): Record<string, string> {
  const method = String(body["method"]);
  const params = isRecord(body["params"]) ? body["params"] : {};
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": MODERN,
    "Mcp-Method": method,
  };
  const field = NAME_FIELD[method];
  const named = field ? params[field] : undefined;
  if (typeof named === "string") headers["Mcp-Name"] = headerValue(named);
  if (options.token) headers["Authorization"] = `Bearer ${options.token}`;
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[key];
    else headers[key] = value;
  }
  return headers;
}

export async function post(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<ModernReply> {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal && { signal }),
  });
  const text = await response.text();
  const type = response.headers.get("Content-Type") ?? "";
  let messages: Record<string, unknown>[] = [];
  if (type.includes("text/event-stream")) messages = parseSse(text).map((event) => jsonObject(event.data));
  else if (type.includes("application/json") && text !== "") messages = [jsonObject(text)];
  const body_ = messages.find((message) => "result" in message || "error" in message);
  return { status: response.status, headers: response.headers, body: body_, messages, text };
}

/** A 2026-07-28 request as a conforming client sends it (and any part of it overridden). */
export function modern(
  baseUrl: string,
  method: string,
  params: Record<string, unknown> = {},
  options: ModernOptions = {},
): Promise<ModernReply> {
  const body = modernBody(method, params, options);
  return post(baseUrl, body, modernHeaders(body, options), options.signal);
}

export const resultOf = (reply: ModernReply): JsonRecord => {
  const result = reply.body?.["result"];
  if (!isRecord(result)) throw new Error(`expected a result, got ${reply.status} ${reply.text.slice(0, 500)}`);
  return result;
};

export const errorOf = (reply: ModernReply): { code: number; message: string; data?: unknown } => {
  const parsed = ErrorV2Schema.safeParse(reply.body?.["error"]);
  if (!parsed.success) throw new Error(`expected an error, got ${reply.status} ${reply.text.slice(0, 500)}`);
  return parsed.data;
};

/** Starts a task through the Tasks extension and returns its id. */
export async function startTask(
  baseUrl: string,
  name: string,
  args: Record<string, unknown>,
  options: ModernOptions = {},
): Promise<string> {
  const result = resultOf(
    await modern(baseUrl, "tools/call", { name, arguments: args }, { capabilities: TASKS, ...options }),
  );
  if (result["resultType"] !== "task") throw new Error(`expected a task, got ${JSON.stringify(result).slice(0, 300)}`);
  return String(result["taskId"]);
}

export const getTask = async (baseUrl: string, taskId: string, options: ModernOptions = {}) =>
  resultOf(await modern(baseUrl, "tasks/get", { taskId }, { capabilities: TASKS, ...options }));

/** The SDK v2 client, negotiating the era as asked. */
export async function connectV2(
  baseUrl: string,
  mode: "auto" | { pin: string },
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "e2e-v2", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
  return client;
}

/**
 * The host-owned dispatch the ext-tasks requester uses for Tasks-extension traffic (the SDK client's
 * codecs do not carry `resultType: "task"`): it frames the request as JSON-RPC with the standard
 * headers and returns the response the package expects.
 */
export function rawDispatch(baseUrl: string, headers: Record<string, string> = {}): RawClientDispatch {
  let next = 0;
  return async (request, options) => {
    if (!isRecord(request)) throw new Error("a JSON-RPC request must be an object");
    const body = { jsonrpc: "2.0", id: `raw-${++next}`, ...request };
    const reply = await post(
      baseUrl,
      body,
      { ...modernHeaders(body), ...headers, ...(options?.context?.headers ?? {}) },
      options?.signal,
    );
    if (!reply.body) throw new Error(`no JSON-RPC response: ${reply.status} ${reply.text.slice(0, 300)}`);
    if ("error" in reply.body) return { kind: "error", error: ErrorV2Schema.parse(reply.body["error"]) };
    const result = reply.body["result"];
    if (!isJsonValue(result)) throw new Error("the result is not JSON");
    return { kind: "result", result };
  };
}

/** An open SSE stream read incrementally (subscriptions/listen): messages as they arrive. */
export interface LiveStream {
  status: number;
  headers: Headers;
  messages: Record<string, unknown>[];
  /** Raw text so far (keepalive comments included). */
  text(): string;
  ended: Promise<void>;
  close(): void;
}

export async function openStream(
  baseUrl: string,
  method: string,
  params: Record<string, unknown>,
  options: ModernOptions = {},
): Promise<LiveStream> {
  const controller = new AbortController();
  const body = modernBody(method, params, options);
  const response = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: modernHeaders(body, options),
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const messages: Record<string, unknown>[] = [];
  let raw = "";
  let pending = "";
  const decoder = new TextDecoder();
  const reader = response.body?.getReader();
  const ended = (async () => {
    if (!reader) return;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        raw += chunk;
        pending += chunk;
        const blocks = pending.split("\n\n");
        pending = blocks.pop() ?? "";
        for (const event of parseSse(blocks.join("\n\n"))) messages.push(jsonObject(event.data));
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    messages,
    text: () => raw,
    ended,
    close: () => controller.abort(),
  };
}
