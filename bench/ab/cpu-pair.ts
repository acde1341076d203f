/**
 * CPU per call of this tree against another checkout (the code before a change, say), in paired
 * rounds: both servers run, and each round measures one then the other (the order alternating), so
 * both meet the same drift. A server's CPU per call drifts by a third over a run (its objects pile
 * up, its refills and alarms land in one round or the next), more than most changes move it, so the
 * answer is the rounds' paired differences, not two medians (docs/peers.md, issue 54).
 *
 *   npm exec -- node bench/ab/cpu-pair.ts ../before [calls=400] [rounds=12]
 *
 * `../before`: the other checkout's root, relative to this one (`git worktree add ../before <commit>`,
 * with node_modules linked). CPU_PAIR_KIND: quick (default: a plain `batch_process {items:1}`),
 * create (the same, task-augmented) or echo.
 */
import { startBenchServer } from "../support.ts";
import { rpc, socketPool, type RpcTarget } from "../peers/client.ts";
import { groupCpu } from "../process-cpu.ts";

const [other, callsArg, roundsArg] = process.argv.slice(2);
if (!other) throw new Error("name the other checkout: node bench/ab/cpu-pair.ts ../before [calls] [rounds]");
const CALLS = Number(callsArg ?? 400);
const ROUNDS = Number(roundsArg ?? 12);
const CONCURRENCY = 4;
const QUICK = { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } };
const PARAMS: Record<string, Record<string, unknown>> = {
  quick: QUICK,
  create: { ...QUICK, task: { ttl: 600_000 } },
  echo: { name: "echo", arguments: { text: "hi" } },
};
const kind = process.env["CPU_PAIR_KIND"] ?? "quick";
const params = PARAMS[kind];
if (!params) throw new Error(`CPU_PAIR_KIND is one of ${Object.keys(PARAMS).join(", ")}`);

/** The runtime's CPU: what the Worker's code and its objects cost (not wrangler's proxy, the same in both trees). */
const workerdCpu = (pgid: number): number => groupCpu(pgid).get("workerd") ?? 0;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const theirs = await startBenchServer({ config: `${other}/wrangler.toml` });
const ours = await startBenchServer();
const servers = [
  { name: "this tree", server: ours },
  { name: other, server: theirs },
] as const;
try {
  const diffs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const perCall = new Map<string, number>();
    for (const { name, server } of round % 2 === 0 ? servers : [...servers].reverse()) {
      const pid = server.pid();
      if (pid === undefined) throw new Error(`${name}: no server pid`);
      const target: RpcTarget = { url: server.url, agent: socketPool() };
      for (let i = 0; i < 20; i++) await rpc(target, "tools/call", params);
      await settle(1000);
      const before = workerdCpu(pid);
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next++ < CALLS) await rpc(target, "tools/call", params);
        }),
      );
      await settle(1500); // what follows the answers (index, events, refills) counts too
      perCall.set(name, (workerdCpu(pid) - before) / CALLS);
    }
    const mine = perCall.get("this tree") ?? Number.NaN;
    const theirsMs = perCall.get(other) ?? Number.NaN;
    diffs.push(mine - theirsMs);
    console.log(
      `round ${round}: this tree ${mine.toFixed(2)}, ${other} ${theirsMs.toFixed(2)} ms workerd CPU a ${kind} call`,
    );
  }
  const sorted = [...diffs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
  const lower = diffs.filter((d) => d < 0).length;
  console.log(
    `this tree − ${other}: median ${median.toFixed(2)} ms, mean ${mean.toFixed(2)} ms a call; lower in ${lower} of ${diffs.length} rounds`,
  );
} finally {
  await Promise.all([ours.stop(), theirs.stop()]);
}
