/**
 * Resources in 2026-07-28: `task://{taskId}` is a template, `resources/list` pages through the
 * caller's tasks (the task card first on the first page) and `resources/read` returns the task
 * document or the card. Each result carries its caching hints: templates and the card are the same
 * for everyone; a task is private and fresh only once it has ended.
 */
import * as z from "zod";
import { isTaskCardUri, readTaskCard, taskCardResource } from "../protocol/task-card";
import { taskDocument } from "../protocol/task-document";
import { TASK_RESOURCE_TEMPLATE, parseTaskResourceUri, taskResourceUri } from "../core/ids";
import { isTerminal, type JsonObject } from "../core/task-record";
import type { ModernContext } from "./context";
import { ModernError, invalidParams } from "./errors";
import { ERROR } from "./protocol";
import { cacheable, STATIC_TTL_MS } from "./results";

/** A finished task's document changes no more until it expires; cached at most this long. */
const FINISHED_TASK_TTL_MS = 3_600_000;

export function listResourceTemplates(): JsonObject {
  return cacheable(
    {
      resourceTemplates: [
        {
          uriTemplate: TASK_RESOURCE_TEMPLATE,
          name: "task",
          title: "A task's status, progress and result",
          description: "Read it to check on a long tool call; list it in subscriptions/listen resourceSubscriptions to hear when it changes.",
          mimeType: "application/json",
        },
      ],
    },
    STATIC_TTL_MS,
    "public",
  );
}

const resourceNotFound = (uri: string): ModernError =>
  new ModernError(ERROR.invalidParams, `Resource not found: "${uri.slice(0, 200)}". This server's resources are your tasks, task://{taskId}, and the task card, ui://mcp-task-worker/task-card.html; tasks are deleted once their ttl has passed.`, 200, { uri: uri.slice(0, 2048) });

const CursorParams = z.object({ cursor: z.string().max(1024).optional() }).loose();
const ReadParams = z.object({ uri: z.string().max(2048) }).loose();

export async function listResources(ctx: ModernContext, params: Record<string, unknown>): Promise<JsonObject> {
  const parsed = CursorParams.safeParse(params);
  const page = parsed.success ? await ctx.gateway.list(parsed.data.cursor) : undefined;
  if (!page) throw invalidParams("Invalid cursor: pass back a nextCursor from an earlier resources/list response unchanged.");
  const tasks = page.tasks.map((task) => ({ uri: taskResourceUri(task.taskId), name: `task-${task.taskId}`, title: `Task ${task.taskId} (${task.status})`, mimeType: "application/json" }));
  const resources = parsed.success && parsed.data.cursor === undefined ? [taskCardResource(), ...tasks] : tasks;
  return cacheable({ resources, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) }, 0, "private");
}

export async function readResource(ctx: ModernContext, params: Record<string, unknown>): Promise<JsonObject> {
  const parsed = ReadParams.safeParse(params);
  if (!parsed.success) throw invalidParams("Invalid params for resources/read: uri must be a string.");
  const { uri } = parsed.data;
  // The card is built with the Worker, so it changes only with a deploy.
  if (isTaskCardUri(uri)) return cacheable({ contents: readTaskCard() }, STATIC_TTL_MS, "public");
  const taskId = parseTaskResourceUri(uri);
  const snapshot = taskId ? await ctx.gateway.get(taskId) : undefined;
  // An unknown URI, an expired task and another principal's task are all simply not found.
  if (!snapshot) throw resourceNotFound(uri);
  const ended = isTerminal(snapshot.task.status);
  const ttlMs = ended ? Math.min(FINISHED_TASK_TTL_MS, Date.parse(snapshot.task.createdAt) + snapshot.task.ttl - Date.now()) : 0;
  return cacheable({ contents: [{ uri, mimeType: "application/json", text: JSON.stringify(taskDocument(snapshot)) }] }, ttlMs, "private");
}
