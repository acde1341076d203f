/**
 * The scripted model. In a conversation that offers our tools it calls the scripted tool once; when
 * the answer is a "Still running" pointer and the script says to follow it, it calls `task_result`
 * with the taskId it was given, again while the task runs, until the end; then it ends its turn.
 * It calls back when the answer says ("in about 81 s"), up to WAIT_CAP_MS later, as a model that
 * waits would: Qwen Code (and Gemini CLI, whose loop detection it shares) halts a model that makes the
 * same call five times in a row, which immediate polling of a 90 s task did while task_result waited
 * 5 s (it now waits up to 25 s: docs/model-facing.md).
 * Agents that hide MCP tools behind a search tool (Qwen Code's `tool_search`) get that search first.
 * Side requests (titles, summaries, next-speaker checks) get a short text.
 */
import { readable } from "../../claude-code/expected";
import type { ModelTurn, Reply, ToolResultSeen } from "./model-turn";

export interface Script {
  /** Our tool's name on the server, e.g. `countdown`. */
  tool: string;
  args: Record<string, unknown>;
  /** Follow a "Still running" answer with task_result calls until the task's end. */
  follow?: boolean;
  /** Call task_result again at once rather than when the answer says: a model that does not wait. */
  callBackAtOnce?: boolean;
}

/** At most this many task_result calls per conversation (each waits up to 25 s on the server). */
export const MAX_FOLLOW_UPS = 40;
/** The taskId in a "Still running" answer: `task <id>`, `taskId "<id>"` (JSON-escaped in Codex's), `task://<id>`. */
export const TASK_ID = /\btaskId \\?"([^"\\]+)\\?"|\btask(?::\/\/| )([\w-]{8,})/i;
const STILL_RUNNING = /\bstill running\b/i;
const COME_BACK_IN = /\bin about (\d+(?:\.\d+)?) ?s\b/;
/** The longest the model holds its reply: model API clients have idle timeouts of their own. */
export const WAIT_CAP_MS = 30_000;
let calls = 0;

/** The name this agent gives our tool `tool` among those offered (`mcp__tasks__x`, `tasks_x`, `tasks.x`…). */
export function agentName(turn: Pick<ModelTurn, "tools">, tool: string): string | undefined {
  const names = turn.tools.map((t) => t.name);
  return names.find((name) => name === tool) ?? names.find((name) => new RegExp(`(^|[_.\\-])${tool}$`).test(name));
}

/**
 * Whether the model is offered our tool `tool`: as a tool of its own, or (an agent that hides MCP
 * tools behind `tool_search` / `tool_call`) named in what the model is told it can reach that way.
 */
export function offers(turn: ModelTurn, tool: string): boolean {
  if (agentName(turn, tool) !== undefined) return true;
  const bridged = turn.tools.some((t) => t.name === "tool_call");
  return bridged && JSON.stringify(turn.body).includes(`mcp__tasks__${tool}\\"`);
}

/** Results of our tool `tool` (by the agent's name for it, or through a search-then-call proxy). */
export function resultsOf(turn: ModelTurn, tool: string): ToolResultSeen[] {
  const proxied = new Set(turn.calls.filter((c) => proxyTarget(c.args) === tool).map((c) => c.id));
  return turn.results.filter(
    (r) => proxied.has(r.id) || r.name === tool || new RegExp(`(^|[_.\\-])${tool}$`).test(r.name),
  );
}

export function decide(turn: ModelTurn, script: Script | undefined): Reply {
  const direct = script && agentName(turn, script.tool);
  const search = turn.tools.find((t) => t.name === "tool_search");
  const proxy = turn.tools.find((t) => t.name === "tool_call");
  if (!script || (!direct && !(search && proxy))) return { kind: "text", text: "OK." };
  const call = (tool: string, args: Record<string, unknown>, afterMs = 0): Reply => {
    const id = `call_standin_${++calls}`;
    const name = agentName(turn, tool);
    if (name) return { kind: "call", id, name, args, afterMs };
    return {
      kind: "call",
      id,
      name: proxy?.name ?? "tool_call",
      args: { name: `mcp__tasks__${tool}`, arguments: args },
      afterMs,
    };
  };
  if (!turn.calls.some((c) => c.name === direct || proxyTarget(c.args) === script.tool)) {
    if (!direct && search && !turn.calls.some((c) => c.name === search.name))
      return { kind: "call", id: `call_standin_${++calls}`, name: search.name, args: { query: script.tool } };
    return call(script.tool, script.args);
  }
  const last = [...resultsOf(turn, script.tool), ...resultsOf(turn, "task_result")].at(-1);
  if (!last) return { kind: "text", text: "Waiting for the tool." };
  const taskId = readable(last.text).match(TASK_ID);
  const followed = resultsOf(turn, "task_result").length;
  if (script.follow && STILL_RUNNING.test(readable(last.text)) && taskId && followed < MAX_FOLLOW_UPS) {
    const comeBack = Number(readable(last.text).match(COME_BACK_IN)?.[1] ?? 0) * 1000;
    const afterMs = script.callBackAtOnce ? 0 : Math.min(comeBack, WAIT_CAP_MS);
    return call("task_result", { taskId: taskId[1] ?? taskId[2] }, afterMs);
  }
  return { kind: "text", text: "Done." };
}

/** The tool a proxy call (`tool_call {name, arguments}`) names, without its server prefix. */
function proxyTarget(args: unknown): string | undefined {
  if (typeof args !== "object" || args === null || !("name" in args) || typeof args.name !== "string") return undefined;
  return args.name.split(/__|[.:]/).at(-1);
}
