/**
 * Hostile input for the fuzz test (test/e2e/fuzz.test.ts) aimed at the shared JSON limits: values
 * nested past the depth limit on every surface that takes one, and the keys requests are routed
 * and parsed by spelled with JSON escapes. Seeded through the test's dice.
 */
import { modernBody, modernHeaders, TASKS } from "./modern";

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** The test's seeded random source. */
export interface Dice {
  rand(): number;
  pick<T>(items: readonly T[]): T;
  int(n: number): number;
}

const DEEP = "__DEEP__";
/** Arrays or objects nested `depth` deep, as text (built as text: the fuzzer must not overflow its own stack). */
const deepText = (rand: () => number, depth: number): string =>
  rand() < 0.5 ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
/** Past the limit by one, or far past it (the depths of issue 25's reports included), within the input route's 64 KiB body cap. */
const DEPTHS = [65, 100, 1000, 5000, 8000, 10_000];

/** A value nested far too deep on one of the surfaces that take a value: arguments and answers, in both eras. */
export function deepRequest(
  { rand, pick, int }: Dice,
  target: { waitingId: string; token: Record<string, string> },
): FuzzRequest {
  const { waitingId, token } = target;
  const withDeep = (value: unknown) => JSON.stringify(value).replace(`"${DEEP}"`, deepText(rand, pick(DEPTHS)));
  const answer = { confirm: { action: "accept", content: { confirm: true, note: DEEP } } };
  const post = { ...token, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const surface = int(7);
  if (surface === 0)
    return {
      method: "POST",
      path: `/tasks/${pick([waitingId, "0".repeat(32)])}/input`,
      headers: { ...token, "Content-Type": "application/json" },
      body: withDeep(answer),
    };
  if (surface === 1)
    return {
      method: "POST",
      path: "/mcp",
      headers: post,
      body: withDeep({ jsonrpc: "2.0", id: `input/${waitingId}/confirm`, result: answer.confirm }),
    };
  if (surface === 2)
    return {
      method: "POST",
      path: "/mcp",
      headers: post,
      body: withDeep({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "task_input", arguments: { taskId: waitingId, inputResponses: answer } },
      }),
    };
  if (surface === 3)
    return {
      method: "POST",
      path: "/mcp",
      headers: post,
      body: withDeep({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: pick(["deploy", "echo", "countdown"]),
          arguments: { service: "api", version: "v2", extra: DEEP },
          task: {},
        },
      }),
    };
  const modernCall = (method: string, params: Record<string, unknown>, capabilities: Record<string, unknown>) => {
    const body = modernBody(method, params, { capabilities });
    return { method: "POST", path: "/mcp", headers: { ...modernHeaders(body), ...token }, body: withDeep(body) };
  };
  if (surface === 4)
    return modernCall(
      "tools/call",
      { name: "deploy", arguments: { service: "api", version: "v2", extra: DEEP } },
      { elicitation: {} },
    );
  if (surface === 5) return modernCall("tasks/update", { taskId: waitingId, inputResponses: answer }, TASKS);
  return modernCall(
    "tools/call",
    {
      name: "deploy",
      arguments: { service: "api", version: "v2" },
      inputResponses: answer,
      requestState: "v1.e30.AAAA",
    },
    { elicitation: {} },
  );
}

/** The keys a request is routed and parsed by, each spelled with a JSON escape: any spelling is the key. */
const ESCAPES: [string, string[]][] = [
  [
    "io.modelcontextprotocol/protocolVersion",
    [
      "io.modelcontextprotocol\\/protocolVersion",
      "io.modelcontextprotocol/protocolVers\\u0069on",
      "\\u0069o.modelcontextprotocol\\/protocol\\u0056ersion",
    ],
  ],
  [
    "io.modelcontextprotocol/clientCapabilities",
    ["io.modelcontextprotocol\\/clientCapabilities", "io.modelcontextprotocol/client\\u0043apabilities"],
  ],
  ["_meta", ["\\u005fmeta"]],
  ["method", ["m\\u0065thod"]],
  ["jsonrpc", ["jsonrp\\u0063"]],
];
export function escapeKeys({ rand, pick }: Dice, body: string): string {
  let out = body;
  for (const [key, spellings] of ESCAPES) if (rand() < 0.6) out = out.split(`"${key}"`).join(`"${pick(spellings)}"`);
  return out;
}

/** A 2026 request (hostile or well-formed) with its keys escaped, with or without its version header. */
export function escapedRequest(
  dice: Dice,
  headers: Record<string, string>,
  hostile: (headers: Record<string, string>) => { headers: Record<string, string>; body: string },
): FuzzRequest {
  const { rand, pick } = dice;
  const base =
    rand() < 0.5
      ? hostile(headers)
      : (() => {
          const body = modernBody(
            pick(["tools/list", "server/discover", "tools/call"]),
            { name: "echo", arguments: { text: "x" } },
            { meta: { "io.modelcontextprotocol/protocolVersion": pick(["2026-07-28", "2099-01-01", "2025-11-25"]) } },
          );
          return { headers: { ...headers, ...modernHeaders(body) }, body: JSON.stringify(body) };
        })();
  const out = { ...base.headers };
  if (rand() < 0.5) delete out["MCP-Protocol-Version"];
  return { method: "POST", path: "/mcp", headers: out, body: escapeKeys(dice, base.body) };
}
