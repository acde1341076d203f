/**
 * Hostile requests for both adopter lanes (test/e2e/adopt-fuzz.test.ts, on test/fixtures/adopter-dual):
 * 2026-07-28 calls on /mcp, a live 2025-11-25 session's POSTs on /mcp-legacy and the plain /tasks
 * view, each with a caller the adopter's principal() throws on or misnames, a Base64 Mcp-Name,
 * bodies framed or chunked, nested past the depth cap or past the body cap, a foreign Host or Origin.
 */
import type { Dice, FuzzRequest } from "./fuzz-input";
import { modernBody, modernHeaders, TASKS } from "./modern";
import type { RawReply } from "./raw-http";

/** Tokens of test/fixtures/adopter-tools.ts: a known caller, the adopter's mistakes, nobody, garbage. */
const TOKENS = [
  "alice-token",
  "throw-token",
  "number-token",
  "object-token",
  undefined,
  "not a token!",
  "x".repeat(5000),
];
const DEPTHS = [65, 200, 20_000];
/** Past MAX_BODY_BYTES (1 MiB), within agents' 4 MiB, and past both. */
const BIG = [2 * 1024 * 1024, 5 * 1024 * 1024];

export const sentinel = (value: string) => `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;

const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** The `arguments` text of a durable call: sound, nested too deep, or too large. */
function argumentsText({ int, pick }: Dice): string {
  const kind = int(8);
  if (kind === 0) return `{"seconds":1,"x":${deep(pick(DEPTHS))}}`;
  if (kind === 1) return `{"seconds":1,"x":"${"a".repeat(pick(BIG))}"}`;
  return '{"seconds":1}';
}

/** Headers every lane shares: a caller, maybe a foreign Host or Origin; Content-Length or not (chunked). */
function edgeHeaders({ int, pick }: Dice, body: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = pick(TOKENS);
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  if (int(6) === 0) headers["Host"] = "evil.example";
  if (int(6) === 0) headers["Origin"] = "https://evil.example";
  // The wrappers' task-link probe (src/adopt/task-link.ts), sent by anyone.
  if (int(6) === 0) headers["mcp-task-worker-probe"] = "1";
  if (body !== undefined && int(2) === 0) headers["Content-Length"] = String(Buffer.byteLength(body));
  return headers;
}

function modernRequest(dice: Dice, taskIds: readonly string[]): FuzzRequest {
  const { int, pick } = dice;
  const kind = int(3);
  const params =
    kind === 0
      ? { name: "countdown", arguments: {} }
      : kind === 1
        ? { taskId: pick(taskIds) }
        : { uri: `task://${pick(taskIds)}` };
  const method = kind === 0 ? "tools/call" : kind === 1 ? "tasks/get" : "resources/read";
  const message = modernBody(method, params, { capabilities: int(4) === 0 ? {} : TASKS });
  const headers = modernHeaders(message, {});
  const name = String(Object.values(params)[0]);
  if (int(2) === 0) headers["Mcp-Name"] = sentinel(name);
  // The arguments spliced in as text: a value built as an object would overflow the fuzzer's own stack.
  const body = JSON.stringify(message).replace('"arguments":{}', `"arguments":${argumentsText(dice)}`);
  return { method: "POST", path: "/mcp", headers: { ...headers, ...edgeHeaders(dice, body) }, body };
}

function legacyRequest(dice: Dice, session: string, taskIds: readonly string[]): FuzzRequest {
  const { int, pick } = dice;
  const kind = int(4);
  const id = int(1000);
  const body =
    kind === 0
      ? `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"countdown","arguments":${argumentsText(dice)},"task":{"ttl":60000}}}`
      : kind === 1
        ? `{"jsonrpc":"2.0","id":${id},"method":"tasks/get","params":{"taskId":${JSON.stringify(pick(taskIds))}}}`
        : kind === 2
          ? `{"jsonrpc":"2.0","id":${id},"method":"tasks/list","params":{}}`
          : `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(deep(pick(DEPTHS)))}}}}`;
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
    "Mcp-Session-Id": session,
  };
  return { method: "POST", path: "/mcp-legacy", headers: { ...headers, ...edgeHeaders(dice, body) }, body };
}

function viewRequest(dice: Dice, taskIds: readonly string[]): FuzzRequest {
  const { int, pick } = dice;
  const taskId = pick(taskIds);
  const kind = int(3);
  if (kind === 0) return { method: "GET", path: "/tasks", headers: edgeHeaders(dice, undefined) };
  if (kind === 1) return { method: "GET", path: `/tasks/${taskId}`, headers: edgeHeaders(dice, undefined) };
  const body = `{"decision":{"action":"accept","content":{"approve":${deep(pick(DEPTHS))}}}}`;
  const headers = { "Content-Type": "application/json", ...edgeHeaders(dice, body) };
  return { method: "POST", path: `/tasks/${taskId}/input`, headers, body };
}

/** One hostile request for a lane picked at random; `session` is a live McpAgent session of alice's. */
export function adopterRequest(dice: Dice, session: string, taskIds: readonly string[]): FuzzRequest {
  const lane = dice.int(3);
  if (lane === 0) return modernRequest(dice, taskIds);
  if (lane === 1) return legacyRequest(dice, session, taskIds);
  return viewRequest(dice, taskIds);
}

/** mulberry32, as test/e2e/fuzz.test.ts seeds its dice: small, fast, replayable. */
export function seededDice(seed: number): Dice {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // By position, not by value: a list may hold undefined (no token at all).
  const pick = <T>(items: readonly T[]): T => {
    const index = Math.floor(rand() * items.length);
    for (const [i, item] of items.entries()) if (i === index) return item;
    throw new Error("pick from an empty list");
  };
  return { rand, pick, int: (n) => Math.floor(rand() * n) };
}

/** The JSON-RPC answer of a reply, JSON or the last `data:` line of an event stream. */
export function json(reply: RawReply): unknown {
  if (reply.text.trimStart().startsWith("{")) return JSON.parse(reply.text);
  const data = reply.text.split("\n").filter((line) => line.startsWith("data: "));
  return JSON.parse(data.at(-1)?.slice("data: ".length) ?? "null");
}
