/**
 * Raw HTTP with node:http, for what fetch() will not send: a forged Host header (DNS-rebinding
 * tests), arbitrary methods and bodies of arbitrary bytes (fuzzing).
 */
import { request as httpRequest } from "node:http";

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function rawRequest(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
    timeoutMs?: number;
    /** A connection of its own, not one kept alive from an earlier request. */
    fresh?: boolean;
  } = {},
): Promise<RawReply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? "GET",
        headers: init.headers ?? {},
        setHost: !(init.headers && Object.keys(init.headers).some((h) => h.toLowerCase() === "host")),
        ...(init.fresh === true && { agent: false }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(init.timeoutMs ?? 30_000, () => req.destroy(new Error(`timeout: ${init.method ?? "GET"} ${url}`)));
    req.on("error", reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}
