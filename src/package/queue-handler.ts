/**
 * The Worker's `queue` handler for every queue the engine sends to (jobs, fanned-out steps,
 * webhooks, and their DLQs): each message goes where its body's tag says, whatever its queue is
 * called (src/queues). Shared by createTaskWorker and mcp-task-worker/agents' durableTasks.
 */
import { stepBatchHandler } from "../jobs/fan-out-consumer";
import { handleJobBatch } from "../jobs/queue-consumer";
import { findStep } from "../jobs/steps";
import type { ToolRegistry } from "../protocol/tool-registry";
import { queueRouter, type BatchHandler } from "../queues/router";
import { handleWebhookBatch } from "../webhooks/queue-consumer";

export function engineQueue(registry: ToolRegistry): BatchHandler {
  const handleStepBatch = stepBatchHandler((tool, step) => findStep(registry.find(tool)?.steps, step));
  return queueRouter({ job: handleJobBatch, step: handleStepBatch, webhook: handleWebhookBatch });
}
