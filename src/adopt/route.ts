/**
 * Which requests the engine serves in an adopter's Worker, decided from the URL and the 2026-07-28
 * standard headers alone (`Mcp-Method`, `Mcp-Name`), so the adopter's own traffic passes through
 * with its body unread. The engine's endpoint then checks that the body agrees with the headers
 * (-32020 when not), as the spec asks of every 2026-07-28 server.
 */
import { decodeHeaderValue } from "../mcp-2026-07-28/headers";
import { HEADER, VERSION_2026_07_28 } from "../mcp-2026-07-28/protocol";

export type Route =
  /** A 2026-07-28 request for the engine: a durable or check-back tool's call, `tasks/*`, a task resource. */
  | "mcp"
  /** The plain HTTP view of tasks: `/tasks`, `/tasks/{id}[/events|/input|/cancel]`. */
  | "tasks"
  /** Everything else: the adopter's handler. */
  | "theirs";

/** The scheme of a task resource (core/model/ids.ts taskResourceUri). */
const TASK_URI_PREFIX = "task://";

const TASK_METHODS = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

const atRootTasks = (pathname: string) => pathname === "/tasks" || pathname.startsWith("/tasks/");

/**
 * `served`: whether the engine answers a call of this tool (the durable tools and the check-back
 * tools); `events`: whether it serves the Events extension's `events/*` (the adopter opted in);
 * `isTaskView`: whether a path is the plain HTTP view's (`/tasks...`, or the adopter's `tasksPath`).
 */
export function routeOf(
  request: Request,
  mcpPath: string,
  served: (tool: string) => boolean,
  events = false,
  isTaskView: (pathname: string) => boolean = atRootTasks,
): Route {
  const { pathname } = new URL(request.url);
  if (isTaskView(pathname)) return "tasks";
  if (pathname !== mcpPath || request.method !== "POST") return "theirs";
  const { headers } = request;
  if (headers.get(HEADER.protocolVersion)?.trim() !== VERSION_2026_07_28) return "theirs";
  const method = headers.get(HEADER.method)?.trim();
  if (method === undefined) return "theirs";
  if (TASK_METHODS.has(method)) return "mcp";
  if (events && method.startsWith("events/")) return "mcp";
  const raw = headers.get(HEADER.name)?.trim();
  // Decoded as the engine's own header check decodes it: a name sent as =?base64?…?= (the spec's
  // form for what a header cannot carry, and any client's choice) is the same name.
  const name = raw === undefined ? undefined : decodeHeaderValue(raw);
  if (name === undefined) return "theirs";
  if (method === "tools/call" && served(name)) return "mcp";
  if (method === "resources/read" && name.startsWith(TASK_URI_PREFIX)) return "mcp";
  return "theirs";
}
