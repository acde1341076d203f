/**
 * One headless turn of an agent in which the scripted model calls one of our tools: runs the CLI,
 * then reads back what the model was sent (the tools offered, each result of our tool and of
 * task_result) and what the agent said to the MCP server, and records it all.
 */
import type { AgentCli, AgentHome, Finished } from "./agent-cli";
import { runTurn } from "./agent-cli";
import type { McpTap, TappedRequest } from "./mcp-tap";
import type { ModelApi } from "./model-api";
import { agentName, resultsOf, type Script } from "./model-script";
import type { ModelTurn, ToolResultSeen } from "./model-turn";
import { record } from "./record";

export interface Setup {
  agent: AgentCli;
  api: ModelApi;
  tap: McpTap;
  home: AgentHome;
}

export interface TurnSeen {
  run: Finished;
  /** The model requests of this turn. */
  turns: ModelTurn[];
  /** What the agent sent the MCP server during this turn. */
  mcp: TappedRequest[];
  /** The results of the scripted tool the model was handed, in order. */
  results: ToolResultSeen[];
  /** The results of task_result calls, in order. */
  followUps: ToolResultSeen[];
  /** The last model request (the whole conversation). */
  last: ModelTurn | undefined;
}

/** Generous: a 90 s call followed to its end through a busy machine. */
const TURN_TIMEOUT_MS = 300_000;

export async function agentTurn(setup: Setup, name: string, script: Script, prompt: string): Promise<TurnSeen> {
  const { agent, api, tap, home } = setup;
  api.script(script);
  const fromTurn = api.turns().length;
  const fromMcp = tap.seen().length;
  const run = await runTurn(agent, home, prompt, TURN_TIMEOUT_MS);
  api.script(undefined);
  const turns = api.turns().slice(fromTurn);
  const last = [...turns].reverse().find((t) => t.results.length > 0) ?? turns.at(-1);
  const seen = {
    run,
    turns,
    mcp: tap.seen().slice(fromMcp),
    results: last ? resultsOf(last, script.tool) : [],
    followUps: last ? resultsOf(last, "task_result") : [],
    last,
  };
  record(agent.name, name, {
    script,
    exit: run.code,
    ms: run.ms,
    // Where the time went: launch to its first model request, and its last model request to its exit.
    firstModelRequestAfterMs: turns[0] && turns[0].at - run.started,
    exitAfterLastModelRequestMs: turns.at(-1) && run.started + run.ms - (turns.at(-1)?.at ?? 0),
    offered: turns.find((t) => agentName(t, script.tool) !== undefined)?.tools.map((tool) => tool.name) ?? [],
    results: seen.results,
    followUps: seen.followUps,
    mcp: seen.mcp.map((m) => ({
      http: m.httpMethod,
      method: m.method,
      status: m.status,
      version: m.protocolVersionHeader,
      params:
        m.method === "tools/call" || m.method === "initialize" || m.method === "server/discover" ? m.params : undefined,
    })),
    strays: api.strays(),
    stdout: run.stdout.slice(-6000),
    stderr: run.stderr.slice(-6000),
    requests: turns.map((t) => t.body),
  });
  return seen;
}

/** The tool result text(s) of a turn, joined, or a failure that shows what the agent printed. */
export function described(seen: TurnSeen): string {
  const mcp = seen.mcp.map((m) => `${m.method ?? m.httpMethod}→${m.status ?? "?"}`).join(", ");
  const output = `stdout: ${seen.run.stdout.slice(-1500)}\nstderr: ${seen.run.stderr.slice(-1500)}`;
  return `exit ${seen.run.code}; ${seen.turns.length} model requests; MCP: ${mcp}\n${output}`;
}
