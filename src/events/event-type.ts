/**
 * An event type (the Events extension's `events/list` entry): a name, a description, zod schemas for
 * the subscription's arguments and the occurrence's payload, its delivery modes, who may see an
 * occurrence and which subscriptions it matches. One file each, like a tool (docs/events.md).
 */
import * as z from "zod";
import type { JsonObject } from "../json";

export type DeliveryMode = "poll" | "push" | "webhook";
export const DELIVERY_MODES: readonly DeliveryMode[] = ["poll", "push", "webhook"];

/**
 * Who sees an occurrence: `"owner"` — only the principal it was emitted for (a task's status: its
 * owner); `"everyone"` — every principal that subscribes, unless `visibleTo` says otherwise.
 */
export type Audience = "owner" | "everyone";

export interface EventTypeDefinition<A extends z.ZodObject, P extends z.ZodObject> {
  /** Dotted, stable: a breaking change to the payload needs a new name. */
  name: string;
  description: string;
  /** What a subscription names (all optional fields are filters). Unknown keys are refused. */
  arguments: A;
  payload: P;
  delivery?: readonly DeliveryMode[];
  audience: Audience;
  /** For `"everyone"` types: may `principal` see this occurrence? (Default: yes.) */
  visibleTo?: (principal: string, data: z.infer<P>) => boolean;
  /**
   * Does an occurrence match a subscription's arguments? Default: every argument given equals the
   * payload's field of the same name, or, for an array argument, the field is one of its items.
   */
  matches?: (args: z.infer<A>, data: z.infer<P>) => boolean;
  /**
   * A source inside the engine: called on every status change of every task (its creation
   * included); the payload it returns is emitted for the task's owner. Use it for types that say
   * what happened to a tool's tasks (`deploy.finished`), with no code in the tool.
   */
  fromTask?: (change: TaskStatusChange) => z.input<P> | undefined;
}

/** One status change of a task, as `fromTask` sees it. */
export interface TaskStatusChange {
  taskId: string;
  tool: string;
  args: JsonObject;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  /** ISO 8601, when the status changed. */
  lastUpdatedAt: string;
  /** The call's final result (a CallToolResult) once the task completed, when known. */
  result?: JsonObject;
}

/** A defined event type, as the engine uses it (schemas checked at the edges, JSON in between). */
export interface EventType {
  readonly name: string;
  readonly description: string;
  readonly delivery: readonly DeliveryMode[];
  readonly audience: Audience;
  readonly argumentsSchema: z.ZodObject;
  readonly payloadSchema: z.ZodObject;
  /** Arguments as JSON Schema (events/list `inputSchema`). */
  readonly inputJsonSchema: JsonObject;
  readonly payloadJsonSchema: JsonObject;
  visible(principal: string, data: JsonObject): boolean;
  matches(args: JsonObject, data: JsonObject): boolean;
  /** The payload this type derives from a task's status change (`fromTask`), unchecked. */
  fromTask?(change: TaskStatusChange): unknown;
}

const NAME = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/i;

/** The default rule: each given argument equals the payload's field (an array: contains it). */
export function fieldsMatch(args: JsonObject, data: JsonObject): boolean {
  for (const [key, wanted] of Object.entries(args)) {
    if (wanted === undefined || wanted === null) continue;
    const actual = data[key];
    if (Array.isArray(wanted)) {
      if (!wanted.some((item) => item === actual)) return false;
    } else if (wanted !== actual) return false;
  }
  return true;
}

function jsonSchemaOf(schema: z.ZodObject): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return rest;
}

/**
 * Defines an event type.
 * @example
 * export default defineEvent({
 *   name: "invoice.paid",
 *   description: "An invoice of the caller's was paid.",
 *   arguments: z.object({ customer: z.string().optional() }),
 *   payload: z.object({ invoiceId: z.string(), customer: z.string(), amount: z.number() }),
 *   audience: "owner",
 * });
 */
export function defineEvent<A extends z.ZodObject, P extends z.ZodObject>(
  definition: EventTypeDefinition<A, P>,
): EventType {
  if (!NAME.test(definition.name) || definition.name.length > 100)
    throw new Error(
      `Event type name "${definition.name}" must be dotted words (letters, digits, _ and -), at most 100.`,
    );
  const argumentsSchema = definition.arguments.strict();
  const { visibleTo, matches, fromTask } = definition;
  return {
    name: definition.name,
    description: definition.description,
    delivery: [...(definition.delivery ?? DELIVERY_MODES)],
    audience: definition.audience,
    argumentsSchema,
    payloadSchema: definition.payload,
    inputJsonSchema: jsonSchemaOf(argumentsSchema),
    payloadJsonSchema: jsonSchemaOf(definition.payload),
    ...(fromTask !== undefined && { fromTask }),
    // Only a custom rule pays for parsing the stored JSON back into its typed shape.
    visible: (principal, data) => {
      if (visibleTo === undefined) return true;
      const parsed = definition.payload.safeParse(data);
      return parsed.success && visibleTo(principal, parsed.data);
    },
    matches: (args, data) => {
      if (matches === undefined) return fieldsMatch(args, data);
      const parsedArgs = definition.arguments.safeParse(args);
      const parsedData = definition.payload.safeParse(data);
      return parsedArgs.success && parsedData.success && matches(parsedArgs.data, parsedData.data);
    },
  };
}
