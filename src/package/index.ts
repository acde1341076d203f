/**
 * mcp-task-worker's public face: every name a Worker built on the package may import, and nothing
 * more (docs/api.md lists each with its stability). Everything else under src/ is internal and may
 * change in any release. Import it by the package's name: `import { defineTool } from "mcp-task-worker"`.
 */

// The Worker: its entry points from a list of tools, and the Durable Object classes to export beside them.
export { createTaskWorker, type TaskWorker, type TaskWorkerOptions } from "./create-task-worker";
export { TaskObject } from "./task-object";
export { SessionObject } from "../sessions/session-object";
export { PrincipalObject } from "../principals/principal-object";
export { RateLimiterObject } from "../limits/rate-limiter-object";
export { EventLogObject } from "../events/event-log-object";

// Events (the MCP Events extension, docs/events.md): event types of your own, and emitting them.
export {
  defineEvent,
  type Audience,
  type DeliveryMode,
  type EventType,
  type EventTypeDefinition,
  type TaskStatusChange,
} from "../events/event-type";
export { EmitError, emitEvent, type EmitOptions } from "../events/emit";

// Writing tools: one file each (docs/writing-tools.md).
export {
  defineTool,
  type CallerToolDefinition,
  type TaskSupport,
  type Tool,
  type ToolDefinition,
} from "../jobs/define-tool";
export type { ResolveCaller } from "../jobs/run-identity";
export type {
  Backoff,
  Callback,
  CallbackOptions,
  CallbackResult,
  Duration,
  FanOutOptions,
  InputAnswer,
  InputQuestion,
  JobContext,
  LogLevel,
  PartialBlock,
  Settled,
  StepAttempt,
  StepContext,
  StepOptions,
  StepRetries,
  ToolContent,
  ToolResult,
} from "../jobs/context";
export { PartialLimitError, PermanentError, StepFailedError } from "../jobs/context";
export { defineStep, type Step, type StepMap } from "../jobs/steps";
export { completeCallback } from "./complete-callback";
export type { CallbackOutcome } from "../core";
export { answeredOnItsOwn, askWhereAPersonCan } from "../jobs/unseen-question";

// Tools whose calls run on a Cloudflare Workflow (docs/workflows.md).
export { defineWorkflowTool, type WorkflowToolDefinition } from "../workflows/define-workflow-tool";
export type { WorkflowBinding } from "../workflows/engine";
export { TaskLink, TaskWorkflow, type ProgressReport, type TaskWorkflowParams } from "../workflows";
