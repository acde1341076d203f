/**
 * The concurrency rows of issue 15: N countdown tasks created at once by one client, then awaited
 * with `tasks/result` (an agent firing N calls and waiting for all), on ours and on the SDK's
 * in-memory task server, with the same raw JSON-RPC client and a pool of kept-alive sockets.
 */
import { rpc, socketPool, type RpcTarget } from "./client.ts";

export interface Burst {
  /** Creation of the first task → the last result. */
  wallMs: number;
  /** Creation of the first task → the last creation answered. */
  createdMs: number;
}

export const SECONDS = 2;

export function burstTarget(url: string): RpcTarget {
  return { url, agent: socketPool() };
}

/** Creates `count` countdowns at once, then awaits every result; fails loudly if one did not complete. */
export async function countdownBurst(target: RpcTarget, count: number): Promise<Burst> {
  const start = performance.now();
  let createdMs = 0;
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const { result } = await rpc(target, "tools/call", {
        name: "countdown",
        arguments: { seconds: SECONDS },
        task: {},
        _meta: { progressToken: `burst-${i}` },
      });
      createdMs = Math.max(createdMs, performance.now() - start);
      const task = result["task"] as { taskId?: unknown } | undefined;
      if (typeof task?.taskId !== "string")
        throw new Error(`no task in the answer of ${target.url}: ${JSON.stringify(result).slice(0, 200)}`);
      return task.taskId;
    }),
  );
  const results = await Promise.all(ids.map(async (taskId) => (await rpc(target, "tasks/result", { taskId })).result));
  const wallMs = performance.now() - start;
  const failed = results.filter(
    (r) => r["isError"] === true || !JSON.stringify(r["content"]).includes("finished"),
  ).length;
  if (failed > 0) throw new Error(`${failed} of ${count} countdowns on ${target.url} did not finish`);
  return { wallMs, createdMs };
}

export const COUNTS = [50, 200] as const;

export interface BurstRun {
  /** One countdown alone, create → result. */
  one: { ours: number; node: number };
  at: Record<(typeof COUNTS)[number], { ours: Burst; node: Burst }>;
}

/**
 * One countdown alone on each, then 50 and 200 at once on each. `nodeFirst` alternates who goes
 * first from run to run. The pause is longer after ours: its finished tasks can leave work behind
 * in the runtime (once a Node burst that followed ours' 200 at once took 0.8 s longer than usual),
 * while the Node peer's leave none.
 */
export async function burstRun(ours: RpcTarget, node: RpcTarget, nodeFirst: boolean): Promise<BurstRun> {
  const oursBurst = async (count: number) => {
    const burst = await countdownBurst(ours, count);
    await pause(2000);
    return burst;
  };
  const nodeBurst = async (count: number) => {
    const burst = await countdownBurst(node, count);
    await pause(500);
    return burst;
  };
  const pair = async (count: number) => {
    if (nodeFirst) {
      const n = await nodeBurst(count);
      return { ours: await oursBurst(count), node: n };
    }
    const o = await oursBurst(count);
    return { ours: o, node: await nodeBurst(count) };
  };
  const one = await pair(1);
  const at50 = await pair(50);
  const at200 = await pair(200);
  return { one: { ours: one.ours.wallMs, node: one.node.wallMs }, at: { 50: at50, 200: at200 } };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
