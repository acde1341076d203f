/**
 * Issue 15's goal 5 and issue 35's tails on the configuration at hand: task creation and a stream's
 * resume, each as a ratio to our bare route, sampled interleaved in rounds of their own (so the 1-s
 * countdowns they create do not load the other latency rows). Creation is a task-augmented
 * `tools/call` of `countdown {seconds: 1}` as in bench/core.bench.ts, in both eras; resume is
 * `GET /mcp` with the `Last-Event-ID` of a finished plain call's first event, timed to its first
 * replayed event, as in bench/streams.bench.ts. Issue 35: the `tasks/get` sent the moment a creation
 * is answered (while the task's job starts and writes), beside a `tasks/get` of a task that ended
 * before the rounds began, and the same creation and read on the Node in-memory task server (P3).
 */
import { sampleRounds } from "../order.ts";
import { finishedCallFirstEventId, summarize, type Summary } from "../support.ts";
import { awaitResults, get, getUntil, oneSocket, rpc, rpcModern, taskIdOf, type RpcTarget } from "./client.ts";

export interface CreationRun {
  bare: Summary;
  create: Summary;
  create2026: Summary;
  resume: Summary;
  /** `tasks/get` of the task just created, sent as its creation is answered. */
  getFresh: Summary;
  /** `tasks/get` of a task that finished before the rounds began. */
  getOld: Summary;
  /** The Node in-memory task server: creation, and `tasks/get` right after it. */
  nodeCreate: Summary;
  nodeGetFresh: Summary;
}

export interface CreationTargets {
  ours: RpcTarget;
  node: RpcTarget;
  /** A task that ended before the rounds began. */
  oldTaskId: string;
  /** The `Last-Event-ID` a resume starts from. */
  resumeFrom: string;
  /** Tasks created while sampling, awaited afterwards so they do not load what follows. */
  created: string[];
  nodeCreated: string[];
}

const COUNTDOWN = { name: "countdown", arguments: { seconds: 1 } };

export async function prepareCreation(url: string, nodeUrl: string, warmupRounds: number): Promise<CreationTargets> {
  const resumeFrom = await finishedCallFirstEventId(url, 2, "peers");
  const ours = { url, agent: oneSocket() };
  const old = await rpc(ours, "tools/call", { ...COUNTDOWN, task: {} });
  const oldTaskId = taskIdOf(old.result, url);
  await rpc(ours, "tasks/result", { taskId: oldTaskId });
  const node = { url: nodeUrl, agent: oneSocket() };
  const targets = { ours, node, oldTaskId, resumeFrom, created: [], nodeCreated: [] };
  await sampleCreation(targets, warmupRounds);
  return targets;
}

export async function sampleCreation(t: CreationTargets, rounds: number): Promise<CreationRun> {
  const series: Record<keyof CreationRun, number[]> = {
    bare: [],
    create: [],
    create2026: [],
    resume: [],
    getFresh: [],
    getOld: [],
    nodeCreate: [],
    nodeGetFresh: [],
  };
  const resumeHeaders = {
    Accept: "text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
    "Last-Event-ID": t.resumeFrom,
  };
  const steps: [keyof CreationRun, () => Promise<number>][] = [
    ["bare", () => get(t.ours, "/health")],
    [
      "create",
      async () => {
        const made = await rpc(t.ours, "tools/call", { ...COUNTDOWN, task: {} });
        const taskId = taskIdOf(made.result, t.ours.url);
        t.created.push(taskId);
        series.getFresh.push((await rpc(t.ours, "tasks/get", { taskId })).ms);
        return made.ms;
      },
    ],
    ["getOld", async () => (await rpc(t.ours, "tasks/get", { taskId: t.oldTaskId })).ms],
    [
      "nodeCreate",
      async () => {
        const made = await rpc(t.node, "tools/call", { ...COUNTDOWN, task: {} });
        const taskId = taskIdOf(made.result, t.node.url);
        t.nodeCreated.push(taskId);
        series.nodeGetFresh.push((await rpc(t.node, "tasks/get", { taskId })).ms);
        return made.ms;
      },
    ],
    [
      "create2026",
      async () => {
        const made = await rpcModern(t.ours, "tools/call", COUNTDOWN, COUNTDOWN.name);
        if (made.result["resultType"] !== "task")
          throw new Error(`no 2026 task: ${JSON.stringify(made.result).slice(0, 200)}`);
        t.created.push(String(made.result["taskId"]));
        return made.ms;
      },
    ],
    ["resume", () => getUntil(t.ours, "/mcp", resumeHeaders, (text) => /^data: \{/m.test(text))],
  ];
  await sampleRounds(steps, rounds, series);
  // Let the countdowns end before anything else is measured.
  await awaitResults(t.ours.url, t.created.splice(0));
  await awaitResults(t.node.url, t.nodeCreated.splice(0));
  return {
    bare: summarize(series.bare),
    create: summarize(series.create),
    create2026: summarize(series.create2026),
    resume: summarize(series.resume),
    getFresh: summarize(series.getFresh),
    getOld: summarize(series.getOld),
    nodeCreate: summarize(series.nodeCreate),
    nodeGetFresh: summarize(series.nodeGetFresh),
  };
}
