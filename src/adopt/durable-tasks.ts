/**
 * `durableTasks({ tools })`: the engine in an existing `agents` Worker. `register(server)` lists the
 * durable tools on the adopter's McpServer; `fetch(handler)` wraps the adopter's handler so the
 * engine serves what is task-related (route.ts) and everything else passes through untouched;
 * `queue` consumes the engine's queues.
 */
import type { McpServer } from "@modelcontextprotocol/server";
import { isCheckBackTool } from "../protocol/check-back-tools";
import type { ToolRegistry } from "../protocol/tool-registry";
import type { Tool } from "../jobs/define-tool";
import { engineQueue } from "../package/queue-handler";
import { toolSet } from "../package/tool-set";
import { bindingProblems, hasTaskBindings } from "./bindings";
import { guardRefusal, withCors, type RequestGuards } from "./http-guards";
import { adopterListings } from "./listing";
import { registerOn, registerOneOn } from "./register";
import type { PrincipalOption } from "./principal";
import type { CallerOf } from "./caller";
import type { ResolveCaller } from "../jobs/run-identity";
import { callerResolver } from "../package/caller-resolver";
import { routeOf } from "./route";
import { refusalResponse, requestScope, rpcRefusalResponse, runInScope } from "./scope";
import { serveEngineMcp } from "./serve-mcp";
import { taskView } from "./task-view";
import { tasksPathOf } from "./tasks-path";
import { isTaskLinkProbe, taskLinkCheck, taskLinkProbeAnswer, type TaskLinkCheck } from "./task-link";
import type { ServedEvents } from "./with-events";

/**
 * `allowedHostnames` / `allowedOriginHostnames`: pass the ones given to createMcpHandler (the
 * wrapper cannot read them from the handler), so task requests on both lanes meet the same checks.
 */
export interface DurableTasksOptions<E = unknown> extends RequestGuards {
  /** The tools that run as durable tasks, each made with defineTool (the adopter's other tools stay on its McpServer). */
  tools: readonly Tool[];
  /**
   * Who is calling: a function answering a stable id from the Worker's own auth (an API key's owner,
   * `ctx.props` of @cloudflare/workers-oauth-provider), or undefined for a caller it does not know;
   * each task is bound to it. A throw is logged and answered 401; an answer that is not a string is
   * refused (403, naming this option). Or `"per-task"`, for a server with no sign-in: anyone may
   * start a task, each task is read by its unguessable id alone, and nothing is listed (docs/adopting.md,
   * "A server with no auth"). Without it, only loopback requests are served (local dev).
   */
  principal?: PrincipalOption<E>;
  /**
   * What a durable tool's `job.caller` gets, captured when its task is created and kept (sealed
   * with CALLER_KEY) for the task's life, never shown to any reader: a JSON object, or undefined.
   * Default: `ctx.props` (@cloudflare/workers-oauth-provider's props, which McpAgent's `this.props` are).
   * @example caller: (request, env, ctx) => ({ apiKey: ctx.props.apiKey })
   */
  caller?: CallerOf<E>;
  /**
   * Turns what a task kept of its caller into each run's `job.caller` (a stored grant id → a fresh
   * token); a throw is what the tool learns, in its words. docs/writing-tools.md, "The caller".
   */
  resolveCaller?: ResolveCaller;
  /** The MCP endpoint's path, as given to createMcpHandler (default "/mcp"). */
  route?: string;
  /**
   * Where the plain HTTP view of tasks is served, and so what the link in every hybrid answer names
   * (default "/tasks"). A Worker whose router forwards only its MCP route sets it under that
   * route, e.g. "/mcp/tasks" beside `app.all("/mcp/*", ...)`; it must end in "/tasks".
   */
  tasksPath?: string;
  /**
   * The Events extension (docs/events.md): `withEvents([...your types])` (even `withEvents([])`, for
   * the engine's `task.status` alone) serves `events/*` of 2026-07-28, and `register` declares the
   * extension. Needs the `EVENTS` binding (EventLogObject). A Worker that does not import
   * `withEvents` bundles none of the extension's code.
   */
  events?: ServedEvents;
}

/** A Worker fetch handler, as createMcpHandler returns it and as a default export's `fetch` is. */
export type FetchHandler<E> = (request: Request, env: E, ctx: ExecutionContext) => Response | Promise<Response>;

export interface DurableTasks<E = unknown> {
  /** The durable tools, by name. */
  readonly tools: ToolRegistry;
  /**
   * Adds the durable tools (those `registerTool` did not place), the check-back tools, the
   * `task://` resource and the Tasks extension to `server`; returns it.
   */
  register<S extends McpServer>(server: S): S;
  /**
   * Lists one durable tool on `server` here, in place of the author's `server.registerTool(name, …)`
   * call, so the listing keeps its position; `register(server)` is still called once, after.
   */
  registerTool<S extends McpServer>(server: S, name: string): S;
  /** `handler` with the engine in front: task requests are served here, the rest reach `handler`. */
  fetch(handler: FetchHandler<E>): (request: Request, env: E, ctx: ExecutionContext) => Promise<Response>;
  /** The MCP endpoint's path (the `route` option): the SDK v1 handler lane reads the 2025 POSTs to it. */
  readonly route: string;
  /** What precedes `/tasks/{id}` in the links answers carry for this request (the `tasksPath` option). */
  baseUrl(request: Request): string;
  /** Whether the links answers carry reach the engine through the Worker's router (the SDK v1 lane asks it too). */
  readonly taskLink: TaskLinkCheck;
  /** Who is calling, as given (mcpAgentTasks resolves the McpAgent lane's callers with the same function). */
  readonly principal: PrincipalOption<E> | undefined;
  /** What a tool's `job.caller` gets, as given (the McpAgent lane captures it with the same function). */
  readonly caller: CallerOf<E> | undefined;
  /** The Host and Origin checks every task request meets (mcpAgentTasks applies them on its lane too). */
  readonly guards: RequestGuards;
  /** The Worker's `queue` handler for the engine's queues (JOBS, and STEPS / WEBHOOKS if bound). */
  queue(batch: MessageBatch<unknown>, env: unknown): Promise<void>;
}

export function durableTasks<E = unknown>(options: DurableTasksOptions<E>): DurableTasks<E> {
  // The package's one record of the isolate's tools: the TaskObject and the queue consumer read it.
  const tools = toolSet.record(options.tools, "durableTasks");
  callerResolver.record(options.resolveCaller);
  const events = options.events !== undefined;
  options.events?.serve();
  const consume = engineQueue(tools);
  const listings = adopterListings(tools);
  const mcpPath = options.route ?? "/mcp";
  const tasksPath = tasksPathOf(options.tasksPath);
  const taskLink = taskLinkCheck(tasksPath, mcpPath);
  const served = (name: string) => tools.find(name) !== undefined || isCheckBackTool(name);
  const guards: RequestGuards = {
    ...(options.allowedHostnames !== undefined && { allowedHostnames: options.allowedHostnames }),
    ...(options.allowedOriginHostnames !== undefined && { allowedOriginHostnames: options.allowedOriginHostnames }),
  };
  return {
    tools,
    register: (server) => registerOn(server, tools, listings, events),
    registerTool: (server, name) => registerOneOn(server, tools, listings.durable, name),
    principal: options.principal,
    caller: options.caller,
    route: mcpPath,
    baseUrl: (request) => tasksPath.baseUrl(request),
    taskLink,
    guards,
    fetch: (handler) => async (request, env, ctx) => {
      const baseUrl = tasksPath.baseUrl(request);
      const scope = requestScope({
        request,
        env,
        ctx,
        tools,
        principal: options.principal,
        caller: options.caller,
        baseUrl,
        taskLink,
      });
      const route = routeOf(request, mcpPath, served, events, tasksPath.covers);
      if (route === "theirs") return runInScope(scope, () => handler(request, env, ctx));
      // /mcp answers a refusal as a JSON-RPC error, /tasks as the template's plain JSON.
      const refuse = route === "mcp" ? rpcRefusalResponse : refusalResponse;
      const guarded = guardRefusal(request, guards);
      if (guarded !== undefined) return withCors(refuse(guarded));
      if (route === "tasks" && isTaskLinkProbe(request)) return taskLinkProbeAnswer();
      return runInScope(scope, async () => {
        const engine = await scope.engine();
        if (!engine.ok) return withCors(refuse(engine.refusal));
        if (route === "tasks") return withCors(await taskView.fetch(tasksPath.atRoot(request), engine.origin.env, ctx));
        return withCors(await serveEngineMcp(request, engine.origin));
      });
    },
    queue: async (batch, env) => {
      if (!hasTaskBindings(env)) {
        // Retried, never dropped: the messages wait for the fixed config (or end in the dead-letter queue).
        console.error("mcp-task-worker: queue messages wait for bindings.", bindingProblems(env).join(" "));
        batch.retryAll({ delaySeconds: 30 });
        return;
      }
      await consume(batch, env);
    },
  };
}
