/**
 * What a Workflow-backed task and its Workflow instance agree on: the instance's id (the task's
 * id), the instance's params, the notes the Workflow leaves in the task (its questions, its output,
 * its error) and the event type that carries each answer back. Both sides import these names.
 */
import type { JsonObject } from "../json";

/** What each instance is created with: whose task it follows, and the tool's arguments. */
export interface TaskWorkflowParams {
  taskId: string;
  principal: string;
  input: JsonObject;
}

/** The instance that runs a task's work. Task ids are 32 hex characters, a valid instance id. */
export const instanceIdFor = (taskId: string): string => taskId;

/** The n-th question the Workflow asked (counted in the order its code asks, stable across replays). */
export const questionNote = (n: number): string => `workflow:question:${n}`;
export const OUTPUT_NOTE = "workflow:output";
export const ERROR_NOTE = "workflow:error";

/** The event that carries the answer to the n-th question (event types allow letters, digits, - and _). */
export const answerEventType = (n: number): string => `mcp-answer-${n}`;

/** The event the engine nudges a running instance with at each check (decide.ts); no step waits for it. */
export const NUDGE_EVENT = "mcp-check";

/** The engine's own notes on the task: the instance was created; the n-th answer was sent. */
export const INSTANCE_NOTE = "workflow:instance";
export const sentNote = (n: number): string => `workflow:sent:${n}`;
