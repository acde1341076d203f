/**
 * `task.status` (DESIGN.md "Events"): one of the caller's tasks changed status — one occurrence per
 * change of status (a new `statusMessage` alone is none), the task's creation its first.
 */
import * as z from "zod";
import { defineEvent } from "./event-type";

const STATUS = z.enum(["working", "input_required", "completed", "failed", "cancelled"]);

export const taskStatusEvent = defineEvent({
  name: "task.status",
  description:
    "One of your tasks changed status (created, waiting for input, completed, failed or cancelled). Filter by taskId, tool or status.",
  arguments: z.object({
    taskId: z.string().max(256).optional().describe("Only this task."),
    tool: z.string().max(128).optional().describe("Only tasks of this tool."),
    status: z.array(STATUS).max(5).optional().describe("Only changes to one of these statuses."),
  }),
  payload: z.object({
    taskId: z.string(),
    tool: z.string(),
    status: STATUS,
    statusMessage: z.string().optional(),
    lastUpdatedAt: z.string(),
  }),
  audience: "owner",
  fromTask: ({ taskId, tool, status, statusMessage, lastUpdatedAt }) => ({
    taskId,
    tool,
    status,
    ...(statusMessage !== undefined && { statusMessage }),
    lastUpdatedAt,
  }),
});
