/**
 * Resources in 2025-11-25 (the handlers are era-free, protocol/resources.ts): tasks
 * (`task://{taskId}`, a template, readable as JSON) and the task card, listed first on the first page.
 */
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, ProtocolError, taskNotFound } from "../../protocol/errors";
import { readResource, resourcesPage, taskResourceTemplate } from "../../protocol/resources";
import type { McpContext } from "../context";
import { BAD_AFTER } from "../../protocol/partial-output";
import type { SdkServer } from "../sdk-server";

export function registerResourceHandlers(server: SdkServer, ctx: McpContext): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [taskResourceTemplate("subscribe to it")],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => resourcesPage(ctx.gateway, request.params));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const read = await readResource(ctx.gateway, uri);
    switch (read.kind) {
      case "card":
      case "task":
        return { contents: read.contents };
      case "unknown_uri":
        throw new ProtocolError(
          ErrorCode.InvalidParams,
          `Unknown resource "${uri.slice(0, 200)}": this server's resources are tasks, task://{taskId}, and the task card, ui://mcp-task-worker/task-card.html.`,
        );
      case "bad_after":
        throw new ProtocolError(ErrorCode.InvalidParams, `Invalid resource URI "${uri.slice(0, 200)}": ${BAD_AFTER}`);
      case "not_found":
        throw taskNotFound();
    }
  });
}
