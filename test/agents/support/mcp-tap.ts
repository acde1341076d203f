/**
 * A loopback pass-through in front of the dev server's /mcp that keeps each JSON-RPC request an
 * agent sends (method and params: what it declares in `initialize` / `server/discover`, which tools
 * it calls, whether it cancels) and the HTTP status it got. Answers, SSE included, stream through untouched.
 */
import { createServer, request as httpRequest } from "node:http";
import { STRIP_PRIMING, stripPriming } from "./strip-priming";

export interface TappedRequest {
  httpMethod: string;
  /** JSON-RPC method, or undefined for a GET/DELETE or a batch of answers. */
  method: string | undefined;
  params: unknown;
  protocolVersionHeader: string | undefined;
  status: number | undefined;
  at: number;
}

export interface McpTap {
  url: string;
  seen(): TappedRequest[];
  close(): Promise<void>;
}

export async function startMcpTap(target: string): Promise<McpTap> {
  const upstream = new URL(target);
  const seen: TappedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const header = req.headers["mcp-protocol-version"];
      const entry: TappedRequest = {
        httpMethod: req.method ?? "?",
        ...rpc(body),
        protocolVersionHeader: Array.isArray(header) ? header[0] : header,
        status: undefined,
        at: Date.now(),
      };
      seen.push(entry);
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          entry.status = answer.statusCode;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const sse = String(answer.headers["content-type"] ?? "").startsWith("text/event-stream");
          if (STRIP_PRIMING && sse) answer.pipe(stripPriming()).pipe(res);
          else answer.pipe(res);
        },
      );
      forward.on("error", (error) => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
        res.end(`tap: ${error.message}`);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the MCP tap has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function rpc(body: Buffer): { method: string | undefined; params: unknown } {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    if (typeof value === "object" && value !== null && "method" in value && typeof value.method === "string") {
      return { method: value.method, params: "params" in value ? value.params : undefined };
    }
  } catch {
    // not JSON (a GET has no body): nothing to note
  }
  return { method: undefined, params: undefined };
}
