/**
 * `mcpAgentTasks(tasks).register(this.server)`: the engine's tools on an McpAgent's SDK v1 McpServer, so
 * its `tools/list` shows them: each durable tool with the template's words on how long calls work
 * and `execution.taskSupport` (what makes the SDK v1 client's callToolStream ask for a task), the
 * check-back tools for clients that do not speak tasks, and the `tasks` capability. Their calls
 * never reach the McpAgent: mcpAgentTasks(tasks).serve answers them in front of it. A call that does
 * reach it (a Worker that did not wrap its handler) is told how to fix that.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { modelCheckBackTools } from "../protocol/check-back-tools";
import { toolDescription } from "../protocol/instructions";
import type { ToolRegistry } from "../protocol/tool-registry";

const notWrapped = (name: string) =>
  new McpError(
    ErrorCode.InternalError,
    `"${name}" is a durable tool, and this request reached the McpAgent unwrapped: serve it with mcpAgentTasks(tasks).serve(MyMCP, "/mcp") instead of MyMCP.serve("/mcp").`,
  );

/** The capability a 2025-11-25 client checks before it asks for a task (the template's own, server.ts). */
export const AGENT_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

export function registerOnAgentServer<S extends McpServer>(server: S, tools: ToolRegistry): S {
  for (const tool of tools.tools) {
    const config = {
      ...(tool.title !== undefined && { title: tool.title }),
      description: toolDescription(tool),
      inputSchema: tool.inputSchema,
    };
    const refuse = () => Promise.reject(notWrapped(tool.name));
    if (tool.taskSupport === "forbidden") server.registerTool(tool.name, config, refuse);
    else
      server.experimental.tasks.registerToolTask(
        tool.name,
        { ...config, execution: { taskSupport: tool.taskSupport } },
        { createTask: refuse, getTask: refuse, getTaskResult: refuse },
      );
  }
  for (const tool of modelCheckBackTools())
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      () => Promise.reject(notWrapped(tool.name)),
    );
  server.server.registerCapabilities({ tasks: AGENT_TASKS_CAPABILITY });
  return server;
}
