/**
 * Questions a job asks a person (`job.elicit`) and the answers it gets: the form a question may
 * take (MCP's elicitation subset: a flat object of primitive fields), and how an answer is checked
 * against it before the job sees it. Pure: the state machine and the TaskObject both use it.
 */
import { Validator, type OutputUnit } from "@cfworker/json-schema";
import * as z from "zod";
import type { JsonObject } from "../../json";

/** A question's key: the job names it, it is asked once per task, and it travels in request ids and URLs. */
export const INPUT_KEY = /^[A-Za-z0-9_.:-]{1,64}$/;
export const isInputKey = (value: unknown): value is string => typeof value === "string" && INPUT_KEY.test(value);

export const MAX_INPUT_MESSAGE = 2000;

/** What a question shows: its message and the form (JSON Schema) of the answer. */
export interface InputQuestion {
  message: string;
  requestedSchema: JsonObject;
}

/** A question the job asked, with its key. */
export interface AskedQuestion extends InputQuestion {
  key: string;
}

export type InputAction = "accept" | "decline" | "cancel";

/** What `job.elicit` returns: MCP's ElicitResult. `content` only with `accept`. */
export interface InputAnswer {
  action: InputAction;
  content?: Record<string, string | number | boolean | string[]>;
  /**
   * Set when the client answered on its own: a decline or cancel that came back sooner after the
   * question was asked than a person could have read it (PERSON_FLOOR_MS). No one saw the question,
   * so say so rather than "the person declined" (headless agents answer every form at once).
   */
  automatic?: true;
}

/**
 * The quickest a person answers a question: a decline or cancel sooner than this after the task
 * asked is the client's own (docs/human-in-the-loop.md, "Who answered"). Measured by the task
 * from the time it recorded the question, so no request's memory is involved. The default of the
 * `PERSON_FLOOR_MS` setting (config.ts), which the TaskObject passes in.
 */
export const PERSON_FLOOR_MS = 1000;

const text = z.string().max(1000).optional();
const StringField = z
  .object({
    type: z.literal("string"),
    title: text,
    description: text,
    minLength: z.number().int().min(0).optional(),
    maxLength: z.number().int().min(0).optional(),
    format: z.enum(["email", "uri", "date", "date-time"]).optional(),
    enum: z.array(z.string()).min(1).max(100).optional(),
    enumNames: z.array(z.string()).optional(),
    oneOf: z
      .array(z.object({ const: z.string(), title: z.string() }))
      .min(1)
      .max(100)
      .optional(),
    default: z.string().optional(),
  })
  .strict();
const NumberField = z
  .object({
    type: z.enum(["number", "integer"]),
    title: text,
    description: text,
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  })
  .strict();
const BooleanField = z
  .object({ type: z.literal("boolean"), title: text, description: text, default: z.boolean().optional() })
  .strict();
const MultiSelectField = z
  .object({
    type: z.literal("array"),
    title: text,
    description: text,
    minItems: z.number().int().min(0).optional(),
    maxItems: z.number().int().min(0).optional(),
    items: z.union([
      z.object({ type: z.literal("string"), enum: z.array(z.string()).min(1).max(100) }).strict(),
      z
        .object({
          anyOf: z
            .array(z.object({ const: z.string(), title: z.string() }))
            .min(1)
            .max(100),
        })
        .strict(),
    ]),
    default: z.array(z.string()).optional(),
  })
  .strict();

/** MCP's requestedSchema: an object whose properties are primitive fields (no nesting). */
export const RequestedSchemaSchema = z
  .object({
    $schema: z.string().optional(),
    type: z.literal("object"),
    properties: z.record(
      z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
      z.union([StringField, NumberField, BooleanField, MultiSelectField]),
    ),
    required: z.array(z.string()).optional(),
  })
  .strict()
  .refine((schema) => (schema.required ?? []).every((name) => Object.hasOwn(schema.properties, name)), {
    message: "every name in required must be a property",
  })
  .refine((schema) => Object.keys(schema.properties).length <= 50, { message: "a form has at most 50 fields" });

/** Why `question` cannot be asked, or undefined when it can. */
export function questionProblem(
  key: unknown,
  question: { message?: unknown; requestedSchema?: unknown },
): string | undefined {
  if (!isInputKey(key))
    return `the key must be 1 to 64 letters, digits or _ . : - (got ${JSON.stringify(key)?.slice(0, 80)})`;
  if (
    typeof question.message !== "string" ||
    question.message.trim() === "" ||
    question.message.length > MAX_INPUT_MESSAGE
  ) {
    return `the message must be a non-empty string of at most ${MAX_INPUT_MESSAGE} characters`;
  }
  const schema = RequestedSchemaSchema.safeParse(question.requestedSchema);
  if (!schema.success) {
    const issue = schema.error.issues[0];
    return `requestedSchema must be a flat object of string, number, integer, boolean or enum fields (MCP elicitation)${issue ? `: ${issue.path.join(".") || "(root)"}: ${issue.message}` : ""}`;
  }
  return undefined;
}

const AnswerSchema = z
  .object({
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

export type AnswerCheck = { ok: true; answer: InputAnswer } | { ok: false; message: string };

/** The most telling error of a failed validation: one naming a field if there is one. */
function describeErrors(errors: readonly OutputUnit[]): string {
  const required = errors.find((error) => error.keyword === "required");
  const field = errors.find((error) => error.instanceLocation !== "#");
  if (field) return `field "${field.instanceLocation.replace(/^#\//, "")}": ${field.error}`;
  if (required) {
    const name = /"([^"]+)"/.exec(required.error)?.[1];
    return name ? `field "${name}" is required` : required.error;
  }
  return errors[0]?.error ?? "the answer does not match the requested form";
}

/**
 * An answer checked against the question's form: `{ action, content? }`, with `content` valid for
 * `requestedSchema` when the person accepted. A declined or cancelled answer carries no content
 * (`automatic` is the task's to set, from when it asked: a client's own field is not taken).
 */
export function checkAnswer(question: InputQuestion, raw: unknown): AnswerCheck {
  const parsed = AnswerSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, message: 'an answer is { "action": "accept" | "decline" | "cancel", "content"?: { ... } }' };
  const { action, content } = parsed.data;
  if (action !== "accept") return { ok: true, answer: { action } };
  const instance = content ?? {};
  const result = new Validator(question.requestedSchema, "2020-12", false).validate(instance);
  if (!result.valid) return { ok: false, message: describeErrors(result.errors) };
  // Only the asked fields reach the job, so it never sees more than its form allowed.
  const properties = question.requestedSchema["properties"];
  const asked = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
  const kept: InputAnswer["content"] = {};
  for (const name of asked) {
    const value = instance[name];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") kept[name] = value;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string")) kept[name] = value;
  }
  return { ok: true, answer: { action, content: kept } };
}

/** A question as MCP's form-mode elicitation request: the `inputRequests` entry every view shows. */
export interface InputRequest {
  method: "elicitation/create";
  params: { mode: "form"; message: string; requestedSchema: JsonObject };
}

export const elicitationRequest = (question: InputQuestion): InputRequest => ({
  method: "elicitation/create",
  params: { mode: "form", message: question.message, requestedSchema: question.requestedSchema },
});
