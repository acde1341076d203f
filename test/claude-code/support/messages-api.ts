/**
 * A stand-in Anthropic Messages API on loopback for driving the real Claude Code CLI: it plays a
 * scripted model (call one MCP tool, then end the turn) and records every request, which is
 * exactly what a real model would have been sent (system prompt, tools, tool results).
 */
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { decide, type Reply } from "./model-script";
import { MessagesRequestSchema, type MessagesRequest } from "./transcript";

export interface ScriptedCall {
  /** The MCP tool's name on our server, e.g. `countdown`; Claude Code calls it `mcp__tasks__countdown`. */
  tool: string;
  input: Record<string, unknown>;
}

export interface MessagesApi {
  /** The base URL for `ANTHROPIC_BASE_URL`. */
  url: string;
  /** Sets what the scripted model does in the conversations that follow. */
  script(call: ScriptedCall): void;
  /** Every `POST /v1/messages` body so far, in order. */
  requests(): MessagesRequest[];
  /** Resolves with the first request from the `from`-th on (past or future) that `match` accepts; rejects after `timeoutMs`. */
  waitForRequest(
    match: (request: MessagesRequest) => boolean,
    timeoutMs: number,
    what: string,
    from?: number,
  ): Promise<MessagesRequest>;
  close(): Promise<void>;
}

export const SERVER_NAME = "tasks";

export async function startMessagesApi(): Promise<MessagesApi> {
  const recorded: MessagesRequest[] = [];
  const arrivals = new EventEmitter();
  let current: ScriptedCall | undefined;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      // A broken request is the harness's bug: say so loudly in the reply Claude Code shows.
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "POST" && path === "/v1/messages/count_tokens") return json(res, { input_tokens: 100 });
    if (req.method !== "POST" || path !== "/v1/messages") return json(res, {});
    const request = MessagesRequestSchema.parse(JSON.parse(body));
    recorded.push(request);
    arrivals.emit("request", request);
    const reply = decide(request, current, SERVER_NAME);
    if (request.stream === true) return stream(res, request.model, reply);
    return json(res, message(request.model, reply));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the stand-in Messages API has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    script: (call) => (current = call),
    requests: () => [...recorded],
    waitForRequest(match, timeoutMs, what, from = 0) {
      const found = recorded.slice(from).find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onRequest = (request: MessagesRequest) => {
          if (!match(request)) return;
          clearTimeout(timer);
          arrivals.off("request", onRequest);
          resolve(request);
        };
        const timer = setTimeout(() => {
          arrivals.off("request", onRequest);
          reject(
            new Error(`the model was not sent ${what} within ${timeoutMs} ms (${recorded.length} requests so far)`),
          );
        }, timeoutMs);
        arrivals.on("request", onRequest);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

const USAGE = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
let messageCount = 0;

function message(model: string, reply: Reply) {
  const content =
    reply.kind === "text"
      ? [{ type: "text", text: reply.text }]
      : [{ type: "tool_use", id: reply.id, name: reply.name, input: reply.input }];
  const stop_reason = reply.kind === "text" ? "end_turn" : "tool_use";
  return {
    id: `msg_standin_${++messageCount}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason,
    stop_sequence: null,
    usage: USAGE,
  };
}

/** The streaming shape: message_start, one content block, message_delta with the stop reason, message_stop. */
function stream(res: ServerResponse, model: string, reply: Reply): void {
  const whole = message(model, reply);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send("message_start", {
    type: "message_start",
    message: { ...whole, content: [], stop_reason: null, usage: { ...USAGE, output_tokens: 1 } },
  });
  if (reply.kind === "text") {
    send("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    send("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: reply.text },
    });
  } else {
    send("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: reply.id, name: reply.name, input: {} },
    });
    send("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(reply.input) },
    });
  }
  send("content_block_stop", { type: "content_block_stop", index: 0 });
  send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: whole.stop_reason, stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  send("message_stop", { type: "message_stop" });
  res.end();
}
