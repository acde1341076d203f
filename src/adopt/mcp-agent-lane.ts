/**
 * The McpAgent lane (`mcpAgentTasks(tasks)`): durable tasks for an `agents` McpAgent Worker (SDK v1
 * McpServer, one Durable Object per session, 2025-11-25 clients), from the engine durableTasks()
 * made, so both lanes share it. A function of its own, not a member of durableTasks' result: a
 * createMcpHandler-only Worker then bundles no 2025-11-25 endpoint. `serve(MyMCP, "/mcp")` stands
 * where `MyMCP.serve("/mcp")` stood: a session's `tasks/*` requests, its calls of durable and
 * check-back tools and its answers to a task's questions are served in the Worker by the template's
 * own 2025-11-25 endpoint (src/mcp-2025-11-25), under the session agents keeps; everything else
 * reaches the McpAgent untouched. docs/adopting.md says why this seam and not the SDK's TaskStore.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { McpAgent } from "agents/mcp";
import { handleMcpPost } from "../mcp-2025-11-25/endpoint";
import { isCheckBackTool } from "../protocol/check-back-tools";
import type { DurableTasks } from "./durable-tasks";
import { guardRefusal, withCors } from "./http-guards";
import { readAgentBody, tooLargeResponse } from "./mcp-agent-body";
import type { TaskMessageSink } from "./mcp-agent";
import { addTaskObserver } from "../package/added-observers";
import { agentSessionObserver, isAgentNamespace, recordAgentBinding } from "./mcp-agent-observer";
import { registerOnAgentServer } from "./mcp-agent-register";
import { agentSessionOf, isAgentPath, isBatchWithEngineMessage, isEngineMessage } from "./mcp-agent-route";
import { jsonRpcErrorResponse } from "../protocol/errors";
import { agentSession } from "./mcp-agent-session";
import { refusalResponse, requestScope, rpcRefusalResponse, runInScope } from "./scope";
import { isTaskLinkProbe, taskLinkCheck, taskLinkProbeAnswer } from "./task-link";
import { tasksPathOf } from "./tasks-path";
import { taskView } from "./task-view";

/** `MyMCP.serve`'s options (binding, transport, CORS, jurisdiction), passed on to it as they are. */
export type AgentServeOptions = NonNullable<Parameters<typeof McpAgent.serve>[1]>;

/** An McpAgent class that extends TaskMcpAgent (so a task's messages can reach its sessions). */
export type TaskAgentClass = (abstract new (...args: never) => TaskMessageSink) & Pick<typeof McpAgent, "serve">;

export interface AgentHandler<E> {
  fetch(request: Request, env: E, ctx: ExecutionContext): Promise<Response>;
}

export interface McpAgentLane<E = unknown> {
  /** Lists the durable and check-back tools on the McpAgent's SDK v1 McpServer (call it in `init()`); returns it. */
  register<S extends McpServer>(server: S): S;
  /** `agent.serve(path, options)` with the engine in front; also serves the plain HTTP view of tasks (`/tasks...`). */
  serve(agent: TaskAgentClass, path: string, options?: AgentServeOptions): AgentHandler<E>;
}

export function mcpAgentTasks<E>(tasks: DurableTasks<E>): McpAgentLane<E> {
  const { tools, principal, caller } = tasks;
  // A task this lane starts tells its session's GET stream of each change (mcp-agent-observer.ts).
  addTaskObserver(agentSessionObserver);
  const served = (name: string) => tools.find(name) !== undefined || isCheckBackTool(name);
  return {
    register: (server) => registerOnAgentServer(server, tools),
    serve(agent, path, options) {
      const binding = options?.binding ?? "MCP_OBJECT";
      recordAgentBinding(binding);
      const theirs = agent.serve(path, options);
      // This lane serves the view at /tasks (the createMcpHandler lane's tasksPath is not its).
      const taskLink = taskLinkCheck(tasksPathOf(undefined), path);
      // McpAgent checks no Origin: the lane holds every request of the agent's path to the engine's
      // guards, so another site's page is refused the McpAgent's own tools as it is the durable ones.
      const guards = { ...tasks.guards, corsOrigin: options?.corsOptions?.origin };
      return {
        async fetch(request, env, ctx) {
          const { pathname } = new URL(request.url);
          const isTaskView = pathname === "/tasks" || pathname.startsWith("/tasks/");
          // Refusals on the session's endpoint are JSON-RPC errors, on /tasks the template's plain JSON.
          const refuse = isTaskView ? refusalResponse : rpcRefusalResponse;
          if (isTaskView || isAgentPath(pathname, path)) {
            const guarded = guardRefusal(request, guards);
            if (guarded !== undefined) return withCors(refuse(guarded));
          }
          const sessionId = isTaskView ? undefined : agentSessionOf(request, path);
          if (!isTaskView && sessionId === undefined) return theirs.fetch(request, env, ctx);
          const body = isTaskView ? undefined : await readAgentBody(request);
          if (body?.kind === "refused") return withCors(body.response);
          const read = body?.kind === "read" ? body : undefined;
          if (isBatchWithEngineMessage(read?.message, served))
            return withCors(
              jsonRpcErrorResponse(
                400,
                -32600,
                "Invalid Request: batches are not served for task requests (tasks/*, durable tool calls, task resources, answers to a task's questions) on this endpoint. Send each one in a POST of its own.",
              ),
            );
          if (!isTaskView && !isEngineMessage(read?.message, served)) {
            // The body was read to look inside: hand the same bytes on.
            return theirs.fetch(read === undefined ? request : new Request(request, { body: read.text }), env, ctx);
          }
          if (isTaskView && isTaskLinkProbe(request)) return taskLinkProbeAnswer();
          const scope = requestScope({ request, env, ctx, tools, principal, caller, taskLink });
          return runInScope(scope, async () => {
            const engine = await scope.engine();
            if (!engine.ok) return withCors(refuse(engine.refusal));
            if (isTaskView) return withCors(await taskView.fetch(request, engine.origin.env, ctx));
            const namespace: unknown = Reflect.get(engine.origin.env, binding);
            if (!isAgentNamespace(namespace) || sessionId === undefined || read === undefined)
              return withCors(
                refuse({
                  status: 503,
                  error: "bindings_missing",
                  message: `The McpAgent binding ${binding} is missing: add { "name": "${binding}", "class_name": "<your McpAgent class>" } to "durable_objects.bindings" in wrangler.jsonc.`,
                }),
              );
            // The engine's own cap on what it serves (MAX_BODY_BYTES), as on the createMcpHandler lane.
            const { maxBodyBytes } = engine.settings;
            if (read.bytes > maxBodyBytes) return withCors(tooLargeResponse(maxBodyBytes));
            const { text, message } = read;
            const mcp = { ...engine.origin, request, body: { ok: true as const, text }, json: { value: message } };
            return withCors(await handleMcpPost(mcp, agentSession(namespace, sessionId)));
          });
        },
      };
    },
  };
}
