/**
 * Resources: tasks (`task://{taskId}`, a template, readable as JSON) and the task card
 * (`ui://…`, the MCP App that task-capable tools name), listed first on the first page.
 */
import { ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { TASK_RESOURCE_TEMPLATE, parseTaskResourceUri, taskResourceUri } from "../../core/ids";
import { ErrorCode, ProtocolError } from "../../protocol/errors";
import { taskDocument } from "../../protocol/task-document";
import type { McpContext } from "../context";
import type { SdkServer } from "../sdk-server";
import { isTaskCardUri, readTaskCard, taskCardResource } from "../../protocol/task-card";
import { taskNotFound } from "./tasks";

export function registerResourceHandlers(server: SdkServer, ctx: McpContext): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: TASK_RESOURCE_TEMPLATE,
        name: "task",
        title: "A task's status, progress and result",
        description: "Read it to check on a long tool call; subscribe to it to hear when it changes.",
        mimeType: "application/json",
      },
    ],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const page = await ctx.gateway.list(request.params?.cursor);
    if (!page) throw new ProtocolError(ErrorCode.InvalidParams, "Invalid cursor: pass back a nextCursor from an earlier resources/list response unchanged.");
    const firstPage = request.params?.cursor === undefined;
    return {
      resources: [
        ...(firstPage ? [taskCardResource()] : []),
        ...page.tasks.map((task) => ({
          uri: taskResourceUri(task.taskId),
          name: `task-${task.taskId}`,
          title: `Task ${task.taskId} (${task.status})`,
          mimeType: "application/json",
        })),
      ],
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (isTaskCardUri(uri)) return { contents: readTaskCard() };
    const taskId = parseTaskResourceUri(uri);
    if (!taskId) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown resource "${uri.slice(0, 200)}": this server's resources are tasks, task://{taskId}, and the task card, ui://mcp-task-worker/task-card.html.`);
    const snapshot = await ctx.gateway.get(taskId);
    if (!snapshot) throw taskNotFound();
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(taskDocument(snapshot)) }] };
  });
}
