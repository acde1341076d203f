/**
 * OpenAI Responses as Codex speaks it: `POST …/responses` with `input` items, answered as SSE
 * (`response.created`, `response.output_item.done`, `response.completed`).
 */
import * as z from "zod";
import { textOf, type Wire } from "./model-turn";

const ItemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.unknown().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  call_id: z.string().optional(),
  output: z.unknown().optional(),
});
const ToolSchema = z.looseObject({
  type: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  tools: z.array(z.unknown()).optional(),
});
const RequestSchema = z.looseObject({
  model: z.string(),
  stream: z.boolean().optional(),
  instructions: z.string().optional(),
  input: z.array(ItemSchema),
  tools: z.array(ToolSchema).optional(),
});

let answers = 0;

export const responses: Wire = {
  name: "responses",
  serves: (method, path) => method === "POST" && path.endsWith("/responses"),
  read(body) {
    const request = RequestSchema.parse(body);
    const calls = request.input
      .filter((i) => i.type === "function_call")
      .map((i) => ({ id: i.call_id ?? "", name: callName(i), args: parseArgs(i.arguments) }));
    const results = request.input
      .filter((i) => i.type === "function_call_output")
      .map((i) => ({
        id: i.call_id ?? "",
        name: calls.find((c) => c.id === i.call_id)?.name ?? "",
        text: textOf(i.output),
      }));
    const developer = request.input
      .filter((i) => i.role === "developer" || i.role === "system")
      .map((i) => textOf(i.content));
    return {
      wire: this.name,
      tools: offered(request.tools ?? []),
      calls,
      results,
      system: [request.instructions ?? "", ...developer].join("\n"),
      stream: request.stream !== false,
      model: request.model,
      at: Date.now(),
      body,
    };
  },
  answer(turn, reply) {
    const id = `resp_standin_${++answers}`;
    const item =
      reply.kind === "text"
        ? {
            type: "message",
            id: `msg_${id}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: reply.text, annotations: [] }],
          }
        : {
            type: "function_call",
            id: `fc_${id}`,
            status: "completed",
            call_id: reply.id,
            ...splitName(reply.name),
            arguments: JSON.stringify(reply.args),
          };
    const usage = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 110,
    };
    const response = {
      id,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model: turn.model,
      status: "completed",
      output: [item],
      usage,
    };
    const events: [string, object][] = [
      ["response.created", { response: { ...response, status: "in_progress", output: [] } }],
      ["response.output_item.added", { output_index: 0, item }],
      ["response.output_item.done", { output_index: 0, item }],
      ["response.completed", { response }],
    ];
    if (!turn.stream) return { contentType: "application/json", body: JSON.stringify(response) };
    const text = events
      .map(([type, data], n) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n, ...data })}\n\n`)
      .join("");
    return { contentType: "text/event-stream", body: text };
  },
};

/** Function tools, and those grouped in a namespace (named `<namespace>.<tool>` here). */
function offered(tools: z.infer<typeof ToolSchema>[]): { name: string; description: string }[] {
  return tools.flatMap((tool) => {
    if (tool.type === "namespace" && tool.tools) {
      const inner = z.array(ToolSchema).parse(tool.tools);
      return [
        { name: tool.name ?? "", description: tool.description ?? "" },
        ...offered(inner).map((t) => ({ ...t, name: `${tool.name ?? ""}.${t.name}` })),
      ];
    }
    return tool.name === undefined ? [] : [{ name: tool.name, description: tool.description ?? "" }];
  });
}

function callName(item: z.infer<typeof ItemSchema>): string {
  const namespace = item["namespace"];
  return typeof namespace === "string" ? `${namespace}.${item.name ?? ""}` : (item.name ?? "");
}

function splitName(name: string): { name: string; namespace?: string } {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? { name } : { namespace: name.slice(0, dot), name: name.slice(dot + 1) };
}

function parseArgs(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? "{}");
  } catch {
    return text;
  }
}
