/**
 * The latency rows of issue 15, sampled interleaved: each round sends one of every request below,
 * in an order of its own (bench/order.ts), so every series meets the same machine load and follows
 * each other series equally often (a task creation leaves background work behind it, and a
 * neighbour on another server may still hold the machine).
 */
import { sampleRounds } from "../order.ts";
import { summarize, type Summary } from "../support.ts";
import { get, notify, oneSocket, rpc, rpcModern, type RpcTarget } from "./client.ts";
import type { WorkerSet } from "./servers.ts";

export interface LatencyRun {
  oursBare: Summary;
  peerBare: Summary;
  oursEcho: Summary;
  peerEcho: Summary;
  agentEcho: Summary;
  oursTaskTool: Summary;
  oursTasksGet: Summary;
  /** `tasks/get` of a finished task in the 2026-07-28 era. */
  oursTasksGet2026: Summary;
}

export interface LatencyTargets {
  ours: RpcTarget;
  createMcpHandler: RpcTarget;
  mcpAgent: RpcTarget;
  /** A finished task on ours, read by `tasks/get`. */
  taskId: string;
  /** The same made and read in the 2026-07-28 era. */
  modernTaskId: string;
}

const ECHO = { name: "echo", arguments: { text: "hello" } };
/** A task-capable tool that ends at once, called plainly (no `task` param), as most clients do. */
const QUICK_TASK_TOOL = { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } };

/** One kept-alive socket per server, an McpAgent session, a finished task; then a warm-up. */
export async function prepareLatency(workers: WorkerSet, warmupRounds: number): Promise<LatencyTargets> {
  const ours: RpcTarget = { url: workers.ours.url, agent: oneSocket() };
  const createMcpHandler: RpcTarget = { url: workers.createMcpHandler.url, agent: oneSocket() };
  const mcpAgent: RpcTarget = { url: workers.mcpAgent.url, agent: oneSocket() };
  const init = await rpc(mcpAgent, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "peers-bench", version: "1.0.0" },
  });
  if (init.sessionId === undefined) throw new Error("McpAgent gave no Mcp-Session-Id at initialize");
  mcpAgent.sessionId = init.sessionId;
  await notify(mcpAgent, "notifications/initialized");
  const created = await rpc(ours, "tools/call", { ...QUICK_TASK_TOOL, task: {} });
  const taskId = String((created.result["task"] as { taskId: unknown }).taskId);
  await rpc(ours, "tasks/result", { taskId });
  const modern = await rpcModern(ours, "tools/call", QUICK_TASK_TOOL, QUICK_TASK_TOOL.name);
  if (modern.result["resultType"] !== "task")
    throw new Error(`no 2026 task: ${JSON.stringify(modern.result).slice(0, 200)}`);
  const modernTaskId = String(modern.result["taskId"]);
  const targets = { ours, createMcpHandler, mcpAgent, taskId, modernTaskId };
  await sampleLatency(targets, warmupRounds);
  return targets;
}

export async function sampleLatency(t: LatencyTargets, rounds: number): Promise<LatencyRun> {
  const series: Record<keyof LatencyRun, number[]> = {
    oursBare: [],
    peerBare: [],
    oursEcho: [],
    peerEcho: [],
    agentEcho: [],
    oursTaskTool: [],
    oursTasksGet: [],
    oursTasksGet2026: [],
  };
  const steps: [keyof LatencyRun, () => Promise<number>][] = [
    ["oursBare", () => get(t.ours, "/health")],
    ["peerBare", () => get(t.createMcpHandler, "/health")],
    ["oursEcho", () => callOk(t.ours, ECHO, "hello")],
    ["peerEcho", () => callOk(t.createMcpHandler, ECHO, "hello")],
    ["agentEcho", () => callOk(t.mcpAgent, ECHO, "hello")],
    ["oursTaskTool", () => callOk(t.ours, QUICK_TASK_TOOL, "Processed 1 items.")],
    ["oursTasksGet", async () => (await rpc(t.ours, "tasks/get", { taskId: t.taskId })).ms],
    [
      "oursTasksGet2026",
      async () => (await rpcModern(t.ours, "tasks/get", { taskId: t.modernTaskId }, t.modernTaskId)).ms,
    ],
  ];
  await sampleRounds(steps, rounds, series);
  return {
    oursBare: summarize(series.oursBare),
    peerBare: summarize(series.peerBare),
    oursEcho: summarize(series.oursEcho),
    peerEcho: summarize(series.peerEcho),
    agentEcho: summarize(series.agentEcho),
    oursTaskTool: summarize(series.oursTaskTool),
    oursTasksGet: summarize(series.oursTasksGet),
    oursTasksGet2026: summarize(series.oursTasksGet2026),
  };
}

/** A plain tools/call that must answer with the tool's own text (not an error, not a still-running pointer). */
async function callOk(target: RpcTarget, params: Record<string, unknown>, text: string): Promise<number> {
  const { ms, result } = await rpc(target, "tools/call", params);
  if (result["isError"] === true || !JSON.stringify(result["content"]).includes(text)) {
    throw new Error(`tools/call on ${target.url} did not answer "${text}": ${JSON.stringify(result).slice(0, 200)}`);
  }
  return ms;
}
