/** Helpers for driving the server: the SDK's real Client, and raw JSON-RPC over HTTP. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export async function connectClient(
  baseUrl: string,
  options: { headers?: Record<string, string>; capabilities?: Record<string, unknown> } = {},
): Promise<Client> {
  const client = new Client({ name: "e2e", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: options.headers ?? {} },
  });
  await client.connect(transport);
  return client;
}

export interface RpcReply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** POST one JSON-RPC message (or any body) and return the parsed JSON reply, or the raw SSE text. */
export async function rpc(
  baseUrl: string,
  body: unknown,
  init: { headers?: Record<string, string>; raw?: boolean } = {},
): Promise<RpcReply> {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...init.headers },
    body: init.raw ? (body as string) : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  if ((response.headers.get("Content-Type") ?? "").includes("application/json")) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  } else if ((response.headers.get("Content-Type") ?? "").includes("text/event-stream")) {
    parsed = parseSse(text).map((e) => JSON.parse(e.data));
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export interface ParsedSseEvent {
  id?: string;
  event?: string;
  data: string;
}

export function parseSse(text: string): ParsedSseEvent[] {
  const events: ParsedSseEvent[] = [];
  for (const block of text.split(/\n\n/)) {
    const event: ParsedSseEvent = { data: "" };
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) event.id = line.slice(4);
      else if (line.startsWith("event: ")) event.event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    // Events without data are skipped, as clients do (the SDK's transport too): a priming event
    // (an id with empty data, SEP-1699) only sets the resume point.
    if (data.length > 0 && data.join("\n") !== "") {
      event.data = data.join("\n");
      events.push(event);
    }
  }
  return events;
}
