/**
 * A host for client ID metadata documents on loopback: https (a self-signed certificate made with
 * openssl for 127.0.0.1, which `wrangler dev` trusts when its process gets NODE_EXTRA_CA_CERTS =
 * `caFile`) and plain http on another port. Each path answers what `routes` says, so a test can
 * serve a good document, a redirect, a 404 or HTML. CIMD client ids must be https URLs, hence the
 * certificate; the plain-http port is where a redirect may try to send the server.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface CimdHost {
  /** `https://127.0.0.1:<port>` */
  httpsOrigin: string;
  /** `http://127.0.0.1:<other port>` */
  httpOrigin: string;
  /** The certificate to pass as NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** What each path answers, on either origin; an unknown path is a 404. */
  routes: Map<string, Answer>;
  /** Every request, as "https GET /path" or "http GET /path". */
  requests: string[];
  close(): Promise<void>;
}

/** A good document for `clientId`, answered as application/json. */
export const documentFor = (clientId: string, redirectUri: string, extra: Record<string, unknown> = {}): Answer => ({
  status: 200,
  headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  body: JSON.stringify({
    ...{ client_id: clientId, client_name: "Stand-in Client", redirect_uris: [redirectUri] },
    ...{ token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"] },
    ...extra,
  }),
});

const listen = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });

export async function startCimdHost(): Promise<CimdHost> {
  const dir = mkdtempSync(join(tmpdir(), "cimd-host-"));
  const keyFile = join(dir, "key.pem");
  const caFile = join(dir, "cert.pem");
  const subject = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"];
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyFile];
  execFileSync("openssl", ["req", "-x509", ...key, "-days", "2", ...subject, "-out", caFile], { stdio: "ignore" });
  const routes = new Map<string, Answer>();
  const requests: string[] = [];
  const handler = (scheme: string) => (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://host").pathname;
    requests.push(`${scheme} ${request.method} ${path}`);
    const answer = routes.get(path) ?? { status: 404, headers: { "Content-Type": "text/plain" }, body: "not here" };
    response.writeHead(answer.status, answer.headers ?? {});
    response.end(answer.body ?? "");
  };
  const https = createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, handler("https"));
  const http = createHttpServer(handler("http"));
  const [httpsPort, httpPort] = [await listen(https), await listen(http)];
  const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    httpsOrigin: `https://127.0.0.1:${httpsPort}`,
    httpOrigin: `http://127.0.0.1:${httpPort}`,
    caFile,
    routes,
    requests,
    close: async () => {
      https.closeAllConnections();
      http.closeAllConnections();
      await Promise.all([close(https), close(http)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
