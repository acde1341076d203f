/**
 * OpenAI Chat Completions as Copilot CLI, Qwen Code and OpenCode speak it: `POST …/chat/completions`,
 * answered as `chat.completion.chunk` SSE ending in `[DONE]` (or one JSON `chat.completion`).
 */
import * as z from "zod";
import { textOf, type Wire } from "./model-turn";

const ToolCallSchema = z.looseObject({
  id: z.string(),
  function: z.looseObject({ name: z.string(), arguments: z.string().optional() }),
});
const MessageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
});
const RequestSchema = z.looseObject({
  model: z.string(),
  stream: z.boolean().optional(),
  messages: z.array(MessageSchema),
  tools: z
    .array(z.looseObject({ function: z.looseObject({ name: z.string(), description: z.string().optional() }) }))
    .optional(),
});

let answers = 0;

export const chatCompletions: Wire = {
  name: "chat-completions",
  serves: (method, path) => method === "POST" && path.endsWith("/chat/completions"),
  read(body) {
    const request = RequestSchema.parse(body);
    const calls = request.messages.flatMap((m) =>
      (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: parseArgs(c.function.arguments) })),
    );
    const results = request.messages
      .filter((m) => m.role === "tool")
      .map((m) => ({
        id: m.tool_call_id ?? "",
        name: calls.find((c) => c.id === m.tool_call_id)?.name ?? "",
        text: textOf(m.content),
      }));
    return {
      wire: this.name,
      tools: (request.tools ?? []).map((t) => ({ name: t.function.name, description: t.function.description ?? "" })),
      calls,
      results,
      system: request.messages
        .filter((m) => m.role === "system" || m.role === "developer")
        .map((m) => textOf(m.content))
        .join("\n"),
      stream: request.stream === true,
      model: request.model,
      at: Date.now(),
      body,
    };
  },
  answer(turn, reply) {
    const id = `chatcmpl-standin-${++answers}`;
    const base = { id, created: Math.floor(Date.now() / 1000), model: turn.model };
    const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
    const finish = reply.kind === "text" ? "stop" : "tool_calls";
    const toolCalls =
      reply.kind === "call"
        ? [
            {
              index: 0,
              id: reply.id,
              type: "function",
              function: { name: reply.name, arguments: JSON.stringify(reply.args) },
            },
          ]
        : undefined;
    if (!turn.stream) {
      const message = {
        role: "assistant",
        content: reply.kind === "text" ? reply.text : null,
        ...(toolCalls ? { tool_calls: toolCalls } : {}),
      };
      return {
        contentType: "application/json",
        body: JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
      };
    }
    const chunk = (delta: object, finishReason: string | null, extra: object = {}) => {
      const choices = [{ index: 0, delta, finish_reason: finishReason }];
      return `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`;
    };
    const delta =
      reply.kind === "text"
        ? { role: "assistant", content: reply.text }
        : { role: "assistant", content: null, tool_calls: toolCalls };
    return {
      contentType: "text/event-stream",
      body: chunk(delta, null) + chunk({}, finish, { usage }) + "data: [DONE]\n\n",
    };
  },
};

function parseArgs(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? "{}");
  } catch {
    return text;
  }
}
