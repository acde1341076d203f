/**
 * The SDK v1 handler lane (`sdkV1Tasks(tasks)`): durable tasks for a Worker that passes an SDK v1
 * McpServer to `createMcpHandler(server)` (deprecated in `agents` 0.32, still served) or to
 * `createLegacyMcpHandler`: stateless 2025 requests, no McpAgent. `register(server)` lists the
 * durable tools with `execution.taskSupport` and the `tasks` capability, as on the McpAgent lane;
 * `fetch(handler)` reads each 2025 POST to the MCP route once and gives the engine's own
 * 2025-11-25 endpoint what is task-related (`tasks/*`, calls of durable and check-back tools): a
 * task for a client that asks for one, the hybrid answer for a plain call, and `resources/read` of
 * the `task://` link that answer carries. Everything else (and
 * every 2026-07-28 request, the `/tasks` view) goes through `tasks.fetch(handler)` as on the
 * createMcpHandler lane.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { isRecord } from "../json";
import { handleMcpPost } from "../mcp-2025-11-25/endpoint";
import type { SessionChecker } from "../mcp-2025-11-25/endpoint";
import { HEADER, VERSION_2026_07_28 } from "../mcp-2026-07-28/protocol";
import { isCheckBackTool } from "../protocol/check-back-tools";
import type { DurableTasks, FetchHandler } from "./durable-tasks";
import { guardRefusal, withCors } from "./http-guards";
import { readAgentBody, tooLargeResponse } from "./mcp-agent-body";
import { registerOnAgentServer } from "./mcp-agent-register";
import { isEngineMessage } from "./mcp-agent-route";
import { requestScope, rpcRefusalResponse, runInScope } from "./scope";

export interface SdkV1Lane<E = unknown> {
  /** Lists the durable and check-back tools and the `tasks` capability on an SDK v1 McpServer; returns it. */
  register<S extends McpServer>(server: S): S;
  /** `handler` (createMcpHandler(server) or createLegacyMcpHandler(server)) with the engine in front. */
  fetch(handler: FetchHandler<E>): (request: Request, env: E, ctx: ExecutionContext) => Promise<Response>;
}

/**
 * No session to look up: the request says what the client speaks. A call that asks for a task
 * (`params.task`) gets one; any other gets the hybrid answer. Questions go out as the link's
 * `task_input` route, never as elicitation a stateless client could not answer on this request.
 */
/** A 2025 `resources/read` of a task's link: the adopter's SDK v1 server has no such resource. */
function isTaskRead(message: unknown): boolean {
  if (!isRecord(message) || message["method"] !== "resources/read" || !("id" in message)) return false;
  const params = message["params"];
  return isRecord(params) && typeof params["uri"] === "string" && params["uri"].startsWith("task://");
}

function statelessSession(message: unknown): SessionChecker {
  const params = isRecord(message) ? message["params"] : undefined;
  const asksForTask = isRecord(params) && isRecord(params["task"]);
  return async (request) => {
    const protocolVersion = request.headers.get(HEADER.protocolVersion)?.trim();
    return {
      ok: true,
      ...(protocolVersion !== undefined && { protocolVersion }),
      clientTasks: asksForTask || (isRecord(message) && String(message["method"]).startsWith("tasks/")),
      clientElicitation: false,
      keepsOpenCalls: false,
    };
  };
}

export function sdkV1Tasks<E>(tasks: DurableTasks<E>): SdkV1Lane<E> {
  const { tools, principal } = tasks;
  const served = (name: string) => tools.find(name) !== undefined || isCheckBackTool(name);
  return {
    register: (server) => registerOnAgentServer(server, tools),
    fetch(handler) {
      const theirs = tasks.fetch(handler);
      return async (request, env, ctx) => {
        const { pathname } = new URL(request.url);
        // 2026-07-28 (named by its header) and the /tasks view: the createMcpHandler lane's routing.
        const modern = request.headers.get(HEADER.protocolVersion)?.trim() === VERSION_2026_07_28;
        if (request.method !== "POST" || pathname !== tasks.route || modern) return theirs(request, env, ctx);
        const body = await readAgentBody(request);
        if (body.kind === "refused") return withCors(body.response);
        if (body.kind === "unread" || !(isEngineMessage(body.message, served) || isTaskRead(body.message)))
          // The body was read to look inside: hand the same bytes on.
          return theirs(body.kind === "unread" ? request : new Request(request, { body: body.text }), env, ctx);
        const guarded = guardRefusal(request, tasks.guards);
        if (guarded !== undefined) return withCors(rpcRefusalResponse(guarded));
        const scope = requestScope({
          request,
          env,
          ctx,
          tools,
          principal,
          baseUrl: tasks.baseUrl(request),
          taskLink: tasks.taskLink,
        });
        return runInScope(scope, async () => {
          const engine = await scope.engine();
          if (!engine.ok) return withCors(rpcRefusalResponse(engine.refusal));
          const { maxBodyBytes } = engine.settings;
          if (body.bytes > maxBodyBytes) return withCors(tooLargeResponse(maxBodyBytes));
          const mcp = {
            ...engine.origin,
            request,
            body: { ok: true as const, text: body.text },
            json: { value: body.message },
          };
          return withCors(await handleMcpPost(mcp, statelessSession(body.message)));
        });
      };
    },
  };
}
