/**
 * A loopback pass-through in front of the dev server's /mcp that notes each request's MCP method
 * and name (the 2026 `Mcp-Method` / `Mcp-Name` headers) and when it came: how often Claude Code
 * polls a task is read here. Bodies, SSE included, are streamed through untouched.
 */
import { createServer, request as httpRequest } from "node:http";

export interface Tapped {
  method: string;
  name: string | undefined;
  at: number;
  /** The `pollIntervalMs` the answer suggested (read from a copy of the body), if it carried one. */
  pollIntervalMs?: number;
}

export interface McpTap {
  url: string;
  seen(): Tapped[];
  close(): Promise<void>;
}

export async function startMcpTap(target: string): Promise<McpTap> {
  const upstream = new URL(target);
  const seen: Tapped[] = [];
  const server = createServer((req, res) => {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const method = header("mcp-method") ?? `${req.method ?? "?"} ${req.url ?? ""}`;
    const tapped: Tapped = { method, name: header("mcp-name"), at: Date.now() };
    seen.push(tapped);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // A copy of a tasks/get answer, to note the interval Claude Code was told; the original goes through as is.
        if (tapped.method === "tasks/get") {
          let body = "";
          answer.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
          answer.on("end", () => {
            const interval = body.match(/"pollIntervalMs":(\d+)/)?.[1];
            if (interval !== undefined) tapped.pollIntervalMs = Number(interval);
          });
        }
        answer.pipe(res);
      },
    );
    forward.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`tap: ${error.message}`);
    });
    req.pipe(forward);
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
