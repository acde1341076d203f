/**
 * `mcp-task-worker/mcp-agent`: the McpAgent lane (SDK v1 McpServer, 2025-11-25 task clients) of
 * the engine `durableTasks()` makes (`mcp-task-worker/agents`). A subpath of its own, so a
 * createMcpHandler-only Worker bundles neither agents' McpAgent nor the 2025-11-25 endpoint.
 * docs/adopting.md, "The McpAgent lane".
 *
 * @example
 * import { durableTasks } from "mcp-task-worker/agents";
 * import { mcpAgentTasks, TaskMcpAgent } from "mcp-task-worker/mcp-agent";
 *
 * const agentTasks = mcpAgentTasks(durableTasks({ tools: [countdown] }));
 * export class MyMCP extends TaskMcpAgent { ... init() { agentTasks.register(this.server); } }
 * export default { fetch: agentTasks.serve(MyMCP, "/mcp").fetch, queue: tasks.queue };
 */
export { TaskMcpAgent, type TaskMessageSink } from "./mcp-agent";
export {
  mcpAgentTasks,
  type AgentHandler,
  type AgentServeOptions,
  type McpAgentLane,
  type TaskAgentClass,
} from "./mcp-agent-lane";
// SDK v1 McpServer under createMcpHandler(server) / createLegacyMcpHandler (docs/adopting.md, "An SDK v1 server").
export { sdkV1Tasks, type SdkV1Lane } from "./sdk-v1-lane";
