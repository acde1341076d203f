/**
 * The event types this server offers besides the engine's `task.status`. To add one, write one
 * file next to this one with `defineEvent` and add it to the list (docs/events.md).
 */
import type { EventType } from "mcp-task-worker";
import deployFinished from "./deploy-finished";

export const events: readonly EventType[] = [deployFinished];
