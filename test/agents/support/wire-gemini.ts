/**
 * The Gemini API as Gemini CLI speaks it: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
 * (and `:generateContent`, `:countTokens` for its side requests), `functionCall` / `functionResponse` parts.
 */
import * as z from "zod";
import { textOf, type Wire } from "./model-turn";

const PartSchema = z.looseObject({
  text: z.string().optional(),
  functionCall: z.looseObject({ id: z.string().optional(), name: z.string(), args: z.unknown().optional() }).optional(),
  functionResponse: z
    .looseObject({ id: z.string().optional(), name: z.string(), response: z.unknown().optional() })
    .optional(),
});
const ContentSchema = z.looseObject({ role: z.string().optional(), parts: z.array(PartSchema).optional() });
const DeclarationSchema = z.looseObject({ name: z.string(), description: z.string().optional() });
const RequestSchema = z.looseObject({
  contents: z.array(ContentSchema).optional(),
  systemInstruction: z.union([z.string(), ContentSchema]).optional(),
  tools: z.array(z.looseObject({ functionDeclarations: z.array(DeclarationSchema).optional() })).optional(),
});

let answers = 0;
/** The wire name of a `:countTokens` request, which wants a count, not a candidate. */
export const COUNT_TOKENS = "gemini-count-tokens";

export const gemini: Wire = {
  name: "gemini",
  serves: (method, path) => method === "POST" && /:(streamGenerateContent|generateContent|countTokens)$/.test(path),
  read(body, path) {
    const request = RequestSchema.parse(body);
    const parts = (request.contents ?? []).flatMap((c) => c.parts ?? []);
    const calls = parts.flatMap((p, n) =>
      p.functionCall
        ? [{ id: p.functionCall.id ?? `call-${n}`, name: p.functionCall.name, args: p.functionCall.args }]
        : [],
    );
    const results = parts.flatMap((p, n) =>
      p.functionResponse
        ? [
            {
              id: p.functionResponse.id ?? `result-${n}`,
              name: p.functionResponse.name,
              text: textOf(p.functionResponse.response),
            },
          ]
        : [],
    );
    const system = request.systemInstruction;
    return {
      wire: path.endsWith(":countTokens") ? COUNT_TOKENS : this.name,
      tools: (request.tools ?? [])
        .flatMap((t) => t.functionDeclarations ?? [])
        .map((d) => ({ name: d.name, description: d.description ?? "" })),
      calls,
      results,
      system: typeof system === "string" ? system : (system?.parts ?? []).map((p) => p.text ?? "").join("\n"),
      stream: path.endsWith(":streamGenerateContent"),
      model: decodeURIComponent(path.split("/").pop() ?? "").split(":")[0] ?? "",
      at: Date.now(),
      body,
    };
  },
  answer(turn, reply) {
    if (turn.wire === COUNT_TOKENS)
      return { contentType: "application/json", body: JSON.stringify({ totalTokens: 100 }) };
    const part =
      reply.kind === "text"
        ? { text: reply.text }
        : { functionCall: { id: reply.id, name: reply.name, args: reply.args } };
    const answer = {
      candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
      modelVersion: turn.model,
      responseId: `standin-${++answers}`,
    };
    if (!turn.stream) return { contentType: "application/json", body: JSON.stringify(answer) };
    return { contentType: "text/event-stream", body: `data: ${JSON.stringify(answer)}\r\n\r\n` };
  },
};
