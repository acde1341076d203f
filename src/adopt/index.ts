/**
 * `mcp-task-worker/agents`: durable tasks for an existing `agents` Worker (createMcpHandler with an
 * SDK v2 McpServer). docs/adopting.md walks through it.
 *
 * @example
 * import { createMcpHandler } from "agents/mcp/server";
 * import { defineTool, durableTasks } from "mcp-task-worker/agents";
 * export { PrincipalObject, TaskObject } from "mcp-task-worker/agents";
 *
 * const tasks = durableTasks({ tools: [countdown] });
 * const mcp = tasks.fetch(createMcpHandler(() => tasks.register(buildServer())));
 * export default { fetch: mcp, queue: tasks.queue } satisfies ExportedHandler;
 */
export { durableTasks, type DurableTasks, type DurableTasksOptions, type FetchHandler } from "./durable-tasks";
export type { PrincipalOf, PrincipalOption } from "./principal";
export type { CallerOf } from "./caller";
export type { ResolveCaller } from "../jobs/run-identity";
// The template's own classes (one TaskObject for both): bind them as TASKS and PRINCIPALS.
export { TaskObject } from "../package/task-object";
export { PrincipalObject } from "../principals/principal-object";
// The Events extension (durableTasks({ events: withEvents([...]) })): bind EventLogObject as EVENTS.
export { withEvents, type ServedEvents } from "./with-events";
export { EventLogObject } from "../events/event-log-object";
export { defineEvent, type EventType } from "../events/event-type";
export { EmitError, emitEvent } from "../events/emit";
export {
  defineTool,
  type CallerToolDefinition,
  type TaskSupport,
  type Tool,
  type ToolDefinition,
  type ToolResult,
} from "../jobs/define-tool";
export { defineStep } from "../jobs/steps";
export { PermanentError, type JobContext } from "../jobs/context";
