/**
 * Resources in 2026-07-28 (the handlers are era-free, protocol/resources.ts), each result with its
 * caching hints: templates and the task card are the same for everyone; a task is private and
 * fresh only once it has ended.
 */
import * as z from "zod";
import { isTerminal } from "../core";
import type { JsonObject } from "../json";
import { parseParams } from "../protocol/params";
import { invalidParams } from "../protocol/errors";
import { BAD_AFTER } from "../protocol/partial-output";
import { readResource as read, resourcesPage, taskResourceTemplate } from "../protocol/resources";
import type { Context20260728 } from "./context";
import { ErrorCode, HttpProtocolError } from "../protocol/errors";

import { cacheable, STATIC_TTL_MS } from "./results";

/** A finished task's document changes no more until it expires; cached at most this long. */
const FINISHED_TASK_TTL_MS = 3_600_000;

export function listResourceTemplates(): JsonObject {
  return cacheable(
    { resourceTemplates: [taskResourceTemplate("list it in subscriptions/listen resourceSubscriptions")] },
    STATIC_TTL_MS,
    "public",
  );
}

const resourceNotFound = (uri: string): HttpProtocolError =>
  new HttpProtocolError(
    ErrorCode.InvalidParams,
    `Resource not found: "${uri.slice(0, 200)}". This server's resources are your tasks, task://{taskId}, and the task card, ui://mcp-task-worker/task-card.html; tasks are deleted once their ttl has passed.`,
    200,
    { uri: uri.slice(0, 2048) },
  );

const ReadParams = z.object({ uri: z.string().max(2048) }).loose();

export async function listResources(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  return cacheable(await resourcesPage(ctx.gateway, params), 0, "private");
}

export async function readResource(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const { uri } = parseParams(ReadParams, "resources/read", params);
  const found = await read(ctx.gateway, uri);
  switch (found.kind) {
    case "card":
      // The card is built with the Worker, so it changes only with a deploy.
      return cacheable({ contents: found.contents }, STATIC_TTL_MS, "public");
    case "task": {
      const { task } = found.snapshot;
      const ttlMs = isTerminal(task.status)
        ? Math.min(FINISHED_TASK_TTL_MS, Date.parse(task.createdAt) + task.ttl - Date.now())
        : 0;
      return cacheable({ contents: found.contents }, ttlMs, "private");
    }
    case "bad_after":
      throw invalidParams(`Invalid resource URI "${uri.slice(0, 200)}": ${BAD_AFTER}`);
    case "unknown_uri":
    case "not_found":
      // An unknown URI, an expired task and another principal's task are all simply not found.
      throw resourceNotFound(uri);
  }
}
