/**
 * The `task://{taskId}` link of every hybrid answer, readable on the adopter's own McpServer: the
 * 2025 requests `createMcpHandler` serves (its legacy lane) reach that server, not the engine, and
 * without this answered `resources/read` with -32601. 2026-07-28 reads never get here (route.ts
 * sends them to the engine, which frames them with caching hints). Registered as a template
 * without a `list` callback: the caller's tasks are not added to the adopter's `resources/list`.
 */
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import { TASK_RESOURCE_TEMPLATE } from "../core";
import { BAD_AFTER } from "../protocol/partial-output";
import { requestContext } from "../protocol/request-context";
import { readResource } from "../protocol/resources";
import type { ToolRegistry } from "../protocol/tool-registry";
import { currentScope } from "./scope";

async function readTask(uri: string, tools: ToolRegistry): Promise<ReadResourceResult> {
  const scope = currentScope();
  if (!scope)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      "Task resources are served through tasks.fetch: wrap the Worker's MCP handler, as in tasks.fetch(createMcpHandler(buildServer)).",
    );
  const engine = await scope.engine();
  if (!engine.ok) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, engine.refusal.message);
  const { gateway } = requestContext({ ...engine.origin, tools });
  const found = await readResource(gateway, uri);
  switch (found.kind) {
    case "task":
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(found.document) }] };
    case "bad_after":
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid resource URI "${uri.slice(0, 200)}": ${BAD_AFTER}`,
      );
    case "card":
    case "unknown_uri":
    case "not_found":
      // Another principal's task, an expired one and a malformed id are all simply not found.
      throw new ResourceNotFoundError(
        uri.slice(0, 2048),
        `Resource not found: "${uri.slice(0, 200)}". A task is readable as task://{taskId} by the caller who started it, until its ttl has passed.`,
      );
  }
}

export function registerTaskResource(server: McpServer, tools: ToolRegistry): void {
  server.registerResource(
    "task",
    new ResourceTemplate(TASK_RESOURCE_TEMPLATE, { list: undefined }),
    {
      title: "A task's status, progress and result",
      description: "Read it to check on a long tool call (the task:// link its answer carries).",
      mimeType: "application/json",
    },
    // The URI as the client sent it (a `?after=N` included), not as the template split it.
    (uri) => readTask(uri.href, tools),
  );
}
