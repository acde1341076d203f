/**
 * Task identity: random 128-bit ids, the Durable Object names derived from (principal, taskId)
 * so that another principal's lookup lands in an empty object, and the `task://` URI every view
 * (MCP resources, webhooks) names a task by.
 */

const TASK_ID = /^[0-9a-f]{32}$/;

/** 128 random bits as 32 lowercase hex characters. */
export function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Validate a client-supplied id before it is used in any name or URL. */
export const isTaskId = (value: unknown): value is string => typeof value === "string" && TASK_ID.test(value);

export const taskObjectName = (principal: string, taskId: string): string =>
  JSON.stringify(["task", principal, taskId]);
export const principalObjectName = (principal: string): string => JSON.stringify(["principal", principal]);

/** The task's MCP resource URI. */
export const taskResourceUri = (taskId: string): string => `task://${taskId}`;
export const TASK_RESOURCE_TEMPLATE = "task://{taskId}";

export function parseTaskResourceUri(uri: string): string | undefined {
  const match = /^task:\/\/([0-9a-f]{32})$/.exec(uri);
  return match?.[1];
}
