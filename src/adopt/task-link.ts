/**
 * Whether the link every answer that outlasts its call carries (`GET {tasksPath}/{id}`) reaches the
 * engine through the adopter's own router (issue 49, point 4): a Worker that forwards only `/mcp` to
 * tasks.fetch answers it with its own 404. Asked once per isolate, at its first task request, by
 * sending that GET to the Worker's own default export (`ctx.exports.default`: no network, the same
 * router a client meets) with the caller's credentials, marked so the engine's wrapper answers it
 * itself, before any principal or storage. Any other answer is logged once, with the line to add.
 * Where the runtime has no `ctx.exports` (a compatibility date before it), nothing is asked.
 */
import type { TasksPath } from "./tasks-path";

const PROBE_HEADER = "mcp-task-worker-probe";
/** What an adopter's middleware may need to pass the probe as it passes the client's own request. */
const CREDENTIALS = ["Authorization", "Cookie"];
/** A well-formed id no task has (ids are random: core/model/ids.ts); the wrapper answers before any lookup. */
const PROBE_ID = "0".repeat(32);

/** The probe, as the wrappers recognise it on their task view's routes. */
export const isTaskLinkProbe = (request: Request): boolean =>
  request.method === "GET" && request.headers.get(PROBE_HEADER) === "1";

/** What a wrapper answers a probe with: that this path is the engine's (nothing about any task). */
export const taskLinkProbeAnswer = (): Response =>
  new Response(null, { status: 204, headers: { [PROBE_HEADER]: "served" } });

interface SelfFetcher {
  fetch(request: Request): Promise<Response>;
}

/** `ctx.exports.default`, read as the runtime may or may not provide it (an older compatibility date has none). */
function ownDefaultExport(ctx: ExecutionContext): SelfFetcher | undefined {
  const exports: unknown = Reflect.get(ctx, "exports");
  if (typeof exports !== "object" || exports === null) return undefined;
  const entry: unknown = Reflect.get(exports, "default");
  // workerd's loopback entrypoint is a callable object (typeof "function"), with fetch on it.
  if ((typeof entry !== "object" && typeof entry !== "function") || entry === null) return undefined;
  const fetch: unknown = Reflect.get(entry, "fetch");
  if (typeof fetch !== "function") return undefined;
  // async: a throw of the router is a rejection here, whatever it returns.
  return { fetch: async (request) => Reflect.apply(fetch, entry, [request]) };
}

/** The log line, with the router lines to add (a Hono app's and a plain fetch's) and the other way round. */
export function unforwardedWords(path: string, mcpPath: string, status: number): string {
  return (
    `mcp-task-worker: GET ${path}/{id}, the link every durable tool's answer carries when its task outlasts the call, does not reach tasks.fetch in this Worker: its router answered ${status} itself. ` +
    `Forward ${path} and everything under it to the handler tasks.fetch wraps, as it forwards ${mcpPath}: ` +
    `app.all("${path}/*", (c) => mcp(c.req.raw, c.env, c.executionCtx)) in Hono, or ` +
    `if (pathname === "${path}" || pathname.startsWith("${path}/")) return mcp(request, env, ctx); in a plain fetch. ` +
    `If the router forwards ${mcpPath}/* already, durableTasks({ tasksPath: "${mcpPath}/tasks" }) serves the links there instead (docs/adopting.md, "Task links and your own router").`
  );
}

export interface TaskLinkCheck {
  /** At a request that opened the engine: asks once per isolate, in the background, and logs what it learns. */
  check(request: Request, ctx: ExecutionContext): void;
}

/** One per lane, made where the lane is (module load): so once per isolate. */
export function taskLinkCheck(tasksPath: TasksPath, mcpPath: string): TaskLinkCheck {
  let asked = false;
  return {
    check(request, ctx) {
      if (asked) return;
      asked = true;
      // A request on the view itself came through the router: it is forwarded.
      if (tasksPath.covers(new URL(request.url).pathname)) return;
      const self = ownDefaultExport(ctx);
      if (self === undefined) return;
      const headers = new Headers({ [PROBE_HEADER]: "1" });
      for (const name of CREDENTIALS) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      const host = request.headers.get("Host");
      if (host !== null) headers.set("Host", host);
      const url = `${tasksPath.baseUrl(request)}/tasks/${PROBE_ID}`;
      const probe = self
        .fetch(new Request(url, { headers }))
        .then(async (answer) => {
          await answer.body?.cancel();
          if (answer.headers.get(PROBE_HEADER) !== "served")
            console.warn(unforwardedWords(tasksPath.path, mcpPath, answer.status));
          // Once per isolate, at debug level: what the check found, where it found nothing wrong.
          else
            console.debug(`mcp-task-worker: GET ${tasksPath.path}/{id}, the link answers carry, reaches tasks.fetch.`);
        })
        .catch((error: unknown) => {
          // The router threw on it: that is the adopter's to see too, but no reason to fail the request.
          console.warn(unforwardedWords(tasksPath.path, mcpPath, 500), error);
        });
      ctx.waitUntil(probe);
    },
  };
}
