/**
 * CPU per call of the server (workerd and wrangler, every process of its group, from /proc), by
 * kind of call, each kind twice: unlike wall time, it barely moves with what else the machine runs.
 * What follows an answer (the index, task.status, the pool's refills) is counted: 1.5 s settle after
 * each series. It tells how many calls a second the server can take at all (issue 54's 200/s rows).
 *
 *   npm exec -- node bench/ab/cpu.ts [calls=400] [concurrency=4]
 */
import { startBenchServer } from "../support.ts";
import { groupCpu, total } from "../process-cpu.ts";
import { rpc, socketPool, type RpcTarget } from "../peers/client.ts";

const CALLS = Number(process.argv[2] ?? 400);
const CONCURRENCY = Number(process.argv[3] ?? 4);

function perCall(before: Map<string, number>, after: Map<string, number>, calls: number): string {
  return [...after].map(([name, ms]) => `${name} ${((ms - (before.get(name) ?? 0)) / calls).toFixed(2)}`).join(", ");
}

const KINDS: Record<string, { params: Record<string, unknown> }> = {
  echo: { params: { name: "echo", arguments: { text: "hi" } } },
  quick: { params: { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } } },
  create: { params: { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 }, task: { ttl: 600_000 } } },
};

const server = await startBenchServer();
const pid = server.pid();
if (pid === undefined) throw new Error("no server pid");
const target: RpcTarget = { url: server.url, agent: socketPool() };
try {
  for (const [kind, { params }] of [...Object.entries(KINDS), ...Object.entries(KINDS)]) {
    for (let i = 0; i < 40; i++) await rpc(target, "tools/call", params);
    await new Promise((r) => setTimeout(r, 1500)); // let the warm-up's follow-ups settle
    const before = groupCpu(pid);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < CALLS) await rpc(target, "tools/call", params);
      }),
    );
    const wall = performance.now() - started;
    await new Promise((r) => setTimeout(r, 1500)); // what follows the answers (index, events, refills) counts too
    const after = groupCpu(pid);
    const cpu = total(after) - total(before);
    console.log(
      `${kind}: ${(cpu / CALLS).toFixed(2)} ms CPU a call (${perCall(before, after, CALLS)}); ${(CALLS / (wall / 1000)).toFixed(0)} calls/s at ${CONCURRENCY} in flight`,
    );
  }
  const idleBefore = total(groupCpu(pid));
  await new Promise((r) => setTimeout(r, 3000));
  console.log(
    `idle: ${((total(groupCpu(pid)) - idleBefore) / 3).toFixed(1)} ms CPU a second (the settles above add ~3 s of it to each kind)`,
  );
} finally {
  await server.stop();
}
