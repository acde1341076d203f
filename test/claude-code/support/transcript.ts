/** The parts of a Messages API request the tests read: what the model was told and what tools gave it. */
import * as z from "zod";

const TextBlockSchema = z.object({ type: z.literal("text"), text: z.string() }).loose();
const ToolUseBlockSchema = z
  .object({ type: z.literal("tool_use"), id: z.string(), name: z.string(), input: z.unknown() })
  .loose();
const ToolResultBlockSchema = z
  .object({
    type: z.literal("tool_result"),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
    is_error: z.boolean().optional(),
  })
  .loose();
const BlockSchema = z.union([
  TextBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  z.looseObject({ type: z.string() }),
]);

export const MessagesRequestSchema = z
  .object({
    model: z.string(),
    stream: z.boolean().optional(),
    system: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
    messages: z.array(z.object({ role: z.string(), content: z.union([z.string(), z.array(BlockSchema)]) }).loose()),
    tools: z.array(z.looseObject({ name: z.string() })).optional(),
  })
  .loose();
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>;

export type ToolUse = z.infer<typeof ToolUseBlockSchema>;
export type ToolResult = z.infer<typeof ToolResultBlockSchema>;

function blocks(request: MessagesRequest, role: "user" | "assistant" | "system"): unknown[] {
  return request.messages
    .filter((m) => m.role === role)
    .flatMap((m) => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content));
}

export function toolUses(request: MessagesRequest): ToolUse[] {
  return blocks(request, "assistant").flatMap((b) => {
    const parsed = ToolUseBlockSchema.safeParse(b);
    return parsed.success ? [parsed.data] : [];
  });
}

export function toolResults(request: MessagesRequest): ToolResult[] {
  return blocks(request, "user").flatMap((b) => {
    const parsed = ToolResultBlockSchema.safeParse(b);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Every text the model was handed in user turns (Claude Code's reminders and task notifications included). */
export function userTexts(request: MessagesRequest): string[] {
  return blocks(request, "user").flatMap((b) => {
    const parsed = TextBlockSchema.safeParse(b);
    return parsed.success ? [parsed.data.text] : [];
  });
}

/** A tool result's content as the model reads it: its text parts joined, other parts as JSON. */
export function resultText(result: ToolResult): string {
  if (result.content === undefined) return "";
  if (typeof result.content === "string") return result.content;
  return result.content
    .map((part) => (part.type === "text" && typeof part["text"] === "string" ? part["text"] : JSON.stringify(part)))
    .join("\n");
}

/**
 * Everything the model is told as system text: the `system` field, and the `role: "system"`
 * messages Claude Code 2.1.328 puts in the conversation (its environment, deferred tools and the
 * "# MCP Server Instructions" section).
 */
export function systemText(request: MessagesRequest): string {
  const field =
    request.system === undefined
      ? []
      : typeof request.system === "string"
        ? [request.system]
        : request.system.map((part) => part.text ?? "");
  const messages = blocks(request, "system").flatMap((b) => {
    const parsed = TextBlockSchema.safeParse(b);
    return parsed.success ? [parsed.data.text] : [];
  });
  return [...field, ...messages].join("\n");
}

const DescribedToolSchema = z.object({ name: z.string(), description: z.string() }).loose();

/** The description of `toolName` among the tools this request offers the model, if it offers it. */
export function toolDescription(request: MessagesRequest, toolName: string): string | undefined {
  for (const tool of request.tools ?? []) {
    const parsed = DescribedToolSchema.safeParse(tool);
    if (parsed.success && parsed.data.name === toolName) return parsed.data.description;
  }
  return undefined;
}

/** The result the model got for its call of `toolName` (the last such call in this request), if any. */
export function resultFor(request: MessagesRequest, toolName: string): ToolResult | undefined {
  const ids = new Set(
    toolUses(request)
      .filter((use) => use.name === toolName)
      .map((use) => use.id),
  );
  return toolResults(request)
    .filter((result) => ids.has(result.tool_use_id))
    .at(-1);
}

export interface TaskNotification {
  status: string;
  summary: string;
  /** What the task's result was, as the model reads it. */
  result: string;
}

/**
 * The `<task-notification>` interactive Claude Code hands the model when a backgrounded task ends,
 * for the server task `serverTaskId` (its summary names it), if this request carries one.
 */
export function taskNotification(request: MessagesRequest, serverTaskId: string): TaskNotification | undefined {
  for (const text of userTexts(request)) {
    for (const [, body = ""] of text.matchAll(/<task-notification>([\s\S]*?)<\/task-notification>/g)) {
      const field = (name: string) => body.match(new RegExp(`<${name}>\\n?([\\s\\S]*?)\\n?</${name}>`))?.[1] ?? "";
      if (field("summary").includes(serverTaskId))
        return { status: field("status"), summary: field("summary"), result: field("result") };
    }
  }
  return undefined;
}
