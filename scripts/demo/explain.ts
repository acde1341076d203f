/**
 * Turns what can go wrong before or during the demo into a sentence that says the cause and the
 * fix: no server, a missing or refused token, a URL that is not an MCP endpoint.
 */
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** A failure already said in plain words. */
export class DemoError extends Error {}

/** A raw HTTP request of the demo got a status it cannot use. */
export class HttpStatusError extends Error {
  readonly status: number;
  constructor(status: number, what: string, body: string) {
    super(`${what} answered HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ""}`);
    this.status = status;
  }
}

export interface ExplainContext {
  url: string;
  tokenGiven: boolean;
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
]);

/** The network error code under a failed fetch (undici puts it on `cause`), if any. */
function networkCode(error: unknown): string | undefined {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    const code = "code" in current ? current.code : undefined;
    if (typeof code === "string" && UNREACHABLE.has(code)) return code;
  }
  return undefined;
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof HttpStatusError) return error.status;
  if (error instanceof StreamableHTTPError && typeof error.code === "number") return error.code;
  return undefined;
}

export function explain(error: unknown, { url, tokenGiven }: ExplainContext): string {
  if (error instanceof DemoError) return error.message;
  const code = networkCode(error);
  if (code) {
    return [
      `No MCP server answers at ${url} (${code}).`,
      "Start one in another terminal with `npm run dev` (it serves http://127.0.0.1:8787/mcp), then run `npm run demo` again;",
      "or point the demo at a running server: `npm run demo -- --url https://<worker>.<subdomain>.workers.dev/mcp --token <token>`.",
    ].join("\n");
  }
  switch (httpStatus(error)) {
    case 401:
      return tokenGiven
        ? `The server at ${url} refused the token (HTTP 401). Use a token listed in its API_KEYS secret (the part after "name:").`
        : `The server at ${url} wants a bearer token (HTTP 401). Pass one with \`npm run demo -- --token <token>\` or set MCP_TOKEN=<token>.`;
    case 403:
      return `The server at ${url} refused the request (HTTP 403). ${error instanceof Error ? error.message : ""}`;
    case 404:
    case 405:
      return `${url} does not look like an MCP endpoint (HTTP ${httpStatus(error)}). This template serves MCP at /mcp: pass --url http://host:port/mcp.`;
    case 429:
      return `The server is rate limiting this token (HTTP 429). Wait a minute and run the demo again.`;
  }
  return `The demo failed: ${error instanceof Error ? error.message : String(error)}`;
}
