/**
 * A loopback "upstream API" that wants its caller's own key (test/fixtures/adopter-tools.ts's
 * `upstream_report` calls it): it records each call's page, task and bearer key, and answers a key
 * it was not told of with 401. Registers the file's beforeAll/afterAll, as ownServer does.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll } from "vitest";

export interface UpstreamCall {
  page: string;
  task: string;
  key: string;
}

export interface UpstreamApi {
  /** Its base URL (live inside tests). */
  readonly url: string;
  readonly calls: UpstreamCall[];
}

export function upstreamApi(knownKeys: readonly string[]): UpstreamApi {
  const calls: UpstreamCall[] = [];
  let server: Server | undefined;
  let url = "";
  beforeAll(async () => {
    server = createServer((request, response) => {
      const at = new URL(request.url ?? "/", "http://upstream");
      const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
      calls.push({ page: at.pathname, task: at.searchParams.get("task") ?? "", key });
      const known = knownKeys.includes(key);
      response.writeHead(known ? 200 : 401).end(known ? `page ${at.pathname.split("/").pop()}` : "unknown key");
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    const address = listening.address();
    url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return {
    get url() {
      return url;
    },
    calls,
  };
}
