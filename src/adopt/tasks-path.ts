/**
 * Where the plain HTTP view of tasks is served in an adopter's Worker (`durableTasks({ tasksPath })`),
 * and so what the link in every hybrid answer names: `/tasks` by default, as in the template. A
 * Worker whose own router forwards only its MCP route to `tasks.fetch` (Hono's `app.all("/mcp/*")`)
 * sets it under that route, `/mcp/tasks`, so the link the answer hands out reaches the engine.
 */
import * as z from "zod";

const DEFAULT_TASKS_PATH = "/tasks";

const TasksPathSchema = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~-]+)*\/tasks$/, "a path that ends in /tasks, such as /tasks or /mcp/tasks");

export interface TasksPath {
  /** The path itself: `/tasks`, or the adopter's (`/mcp/tasks`). */
  readonly path: string;
  /** Whether `pathname` is the view's (`/tasks` itself or below it). */
  covers(pathname: string): boolean;
  /** The request as the view's router reads it: the same request at `/tasks...`. */
  atRoot(request: Request): Request;
  /** What precedes `/tasks/{id}` in a link: the origin, plus the prefix when there is one. */
  baseUrl(request: Request): string;
}

/** The option, checked where the adopter gives it (module load), so a typo fails at deploy, not at a call. */
export function tasksPathOf(option: string | undefined): TasksPath {
  const parsed = TasksPathSchema.safeParse(option ?? DEFAULT_TASKS_PATH);
  if (!parsed.success)
    throw new Error(
      `durableTasks({ tasksPath: ${JSON.stringify(option)} }): give ${parsed.error.issues[0]?.message ?? "a path ending in /tasks"}.`,
    );
  const path = parsed.data;
  const prefix = path.slice(0, -DEFAULT_TASKS_PATH.length);
  return {
    path,
    covers: (pathname) => pathname === path || pathname.startsWith(`${path}/`),
    atRoot(request) {
      if (prefix === "") return request;
      const url = new URL(request.url);
      url.pathname = url.pathname.slice(prefix.length);
      return new Request(url, request);
    },
    baseUrl: (request) => `${new URL(request.url).origin}${prefix}`,
  };
}
