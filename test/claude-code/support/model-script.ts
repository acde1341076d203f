/**
 * The scripted model: in the conversation that carries our MCP tools it calls the scripted tool
 * once (loading it through ToolSearch first when Claude Code defers MCP tools), then ends its turn
 * once a result is back. Side requests (titles, summaries) get a short text.
 */
import type { ScriptedCall } from "./messages-api";
import { resultFor, toolResults, toolUses, type MessagesRequest } from "./transcript";

export type Reply = { kind: "text"; text: string } | { kind: "tool_use"; id: string; name: string; input: unknown };

const TOOL_SEARCH = "ToolSearch";
let useCount = 0;

export const mcpToolName = (server: string, tool: string) => `mcp__${server}__${tool}`;

export function decide(request: MessagesRequest, call: ScriptedCall | undefined, server: string): Reply {
  const names = new Set((request.tools ?? []).map((tool) => tool.name));
  if (call === undefined || !(names.has(TOOL_SEARCH) || [...names].some((name) => name.startsWith(`mcp__${server}__`))))
    return { kind: "text", text: "OK." };
  const target = mcpToolName(server, call.tool);
  if (resultFor(request, target) !== undefined) return { kind: "text", text: "Done." };
  if (toolUses(request).some((use) => use.name === target)) return { kind: "text", text: "Waiting for the tool." };
  const searched = toolUses(request).some(
    (use) => use.name === TOOL_SEARCH && toolResults(request).some((r) => r.tool_use_id === use.id),
  );
  if (!names.has(target) && names.has(TOOL_SEARCH) && !searched) {
    return {
      kind: "tool_use",
      id: `toolu_standin_${++useCount}`,
      name: TOOL_SEARCH,
      input: { query: `select:${target}`, max_results: 5 },
    };
  }
  return { kind: "tool_use", id: `toolu_standin_${++useCount}`, name: target, input: call.input };
}
