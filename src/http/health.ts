/**
 * `GET /health` answered before the router, as the createMcpHandler peer answers it: the bare route
 * (no auth, no storage, no settings) and the benchmarks' baseline. Through hono it measured about
 * 3 % slower under `wrangler dev` (docs/plain-path.md); the hono route stays for HEAD.
 */
type Fetch<E> = (request: Request, env: E, ctx: ExecutionContext) => Response | Promise<Response>;

export function answerHealthFirst<E>(fetch: Fetch<E>): Fetch<E> {
  return (request, env, ctx) => (request.method === "GET" && new URL(request.url).pathname === "/health" ? Response.json({ ok: true }) : fetch(request, env, ctx));
}
