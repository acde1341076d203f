/**
 * `deploy.finished` (DESIGN.md "Events"): a `deploy` task ended, with its outcome. Derived from the
 * task's status (`fromTask`), so `deploy` itself has no code for it and a failure or a cancel is
 * told as surely as a rollout.
 */
import * as z from "zod";
import { defineEvent, type TaskStatusChange } from "mcp-task-worker";

const Outcome = z.enum(["deployed", "not_deployed", "failed", "cancelled"]);

function outcomeOf(change: TaskStatusChange): z.infer<typeof Outcome> | undefined {
  if (change.status === "failed" || change.status === "cancelled") return change.status;
  if (change.status !== "completed") return undefined;
  const structured = change.result?.["structuredContent"];
  const deployed =
    typeof structured === "object" && structured !== null && Reflect.get(structured, "deployed") === true;
  return deployed ? "deployed" : "not_deployed";
}

export default defineEvent({
  name: "deploy.finished",
  description: "A deploy you started ended: deployed, not deployed (declined), failed or cancelled. Filter by service.",
  arguments: z.object({ service: z.string().max(100).optional().describe("Only deploys of this service.") }),
  payload: z.object({
    service: z.string(),
    version: z.string(),
    outcome: Outcome,
    taskId: z.string(),
  }),
  audience: "owner",
  fromTask(change) {
    const outcome = change.tool === "deploy" ? outcomeOf(change) : undefined;
    const { service, version } = change.args;
    if (outcome === undefined || typeof service !== "string" || typeof version !== "string") return undefined;
    return { service, version, outcome, taskId: change.taskId };
  },
});
