/** A real HTTP receiver on 127.0.0.1 for webhook tests and the benchmark: records every POST, fails on request. */
import { createServer, type IncomingHttpHeaders } from "node:http";

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Arrival time (ms since the epoch). */
  at: number;
  /** The status this receiver answered with. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Answer the next `count` POSTs to `path` with `status` (then 200 again). */
  failNext(path: string, count: number, status?: number): void;
  /** Always answer POSTs to `path` with `status`. */
  failAlways(path: string, status?: number): void;
  close(): Promise<void>;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === "string") flat[name] = value;
  return flat;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const failures = new Map<string, { left: number; status: number }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const failure = failures.get(path);
      let status = 200;
      if (failure && failure.left > 0) {
        failure.left -= 1;
        status = failure.status;
      }
      received.push({
        path,
        headers: flatHeaders(req.headers),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        status,
      });
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "try again");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext: (path, count, status = 500) => failures.set(path, { left: count, status }),
    failAlways: (path, status = 500) => failures.set(path, { left: Number.POSITIVE_INFINITY, status }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
