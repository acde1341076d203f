/**
 * One request to a model API, whatever its wire (Chat Completions, Responses, Gemini), read into the
 * few things the tests and the scripted model need: the tools offered, the calls made, what each
 * tool call gave back, and the system prompt. `body` keeps the request exactly as the model got it.
 */
export interface OfferedTool {
  name: string;
  description: string;
}

export interface ToolCallSeen {
  id: string;
  name: string;
  args: unknown;
}

export interface ToolResultSeen {
  id: string;
  /** The tool's name as the agent calls it (the call's name, matched by id). */
  name: string;
  /** The result as the model reads it: the text sent, or the JSON of a structured result. */
  text: string;
}

export interface ModelTurn {
  wire: string;
  tools: OfferedTool[];
  calls: ToolCallSeen[];
  results: ToolResultSeen[];
  system: string;
  /** Whether the agent asked for a streamed answer. */
  stream: boolean;
  model: string;
  /** When the stand-in received it (ms since the epoch). */
  at: number;
  body: unknown;
}

/** What the scripted model answers: some text that ends the turn, or one tool call (made `afterMs` from now). */
export type Reply =
  | { kind: "text"; text: string }
  | { kind: "call"; id: string; name: string; args: Record<string, unknown>; afterMs?: number };

/** A wire: which requests it takes, how to read one, how to answer. */
export interface Wire {
  name: string;
  /** True when this wire serves `method path` (path without the query). */
  serves(method: string, path: string): boolean;
  read(body: unknown, path: string, query: URLSearchParams): ModelTurn;
  /** The whole HTTP answer for `reply` (streamed or not, as the turn asked). */
  answer(turn: ModelTurn, reply: Reply): { contentType: string; body: string };
}

/** Text of a content value that may be a string, an array of parts, or anything else (as JSON). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(textOf).join("\n");
  if (typeof content === "object" && content !== null && "text" in content && typeof content.text === "string")
    return content.text;
  return content === undefined || content === null ? "" : JSON.stringify(content);
}
