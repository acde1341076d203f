/**
 * Issue 54: one principal calling fast. At 20, 50, 100 and 200 calls a second (open-loop:
 * bench/busy/open-loop.ts), from the one anonymous principal every loopback caller shares: the bare
 * route, our `echo`, the quick task-capable call (`batch_process {items:1, secondsPerItem:0}`, plain)
 * and a task creation (the same tool, task-augmented), each as p50 / p99 and as ratios to `echo` and
 * the bare route at the same rate in the same run. At each rate a second of the quick call warms the
 * pool to the rate first; then each series runs PHASE_MS at the rate, twice, the second pass in the
 * reverse order, so no series always follows the same one.
 *
 * Each series also counts the runtime's CPU per call (the Worker's workerd process, not wrangler's
 * proxy, from /proc: load barely moves it), what follows its answers included, give or take what
 * spills into the next series: the runtime's one thread holds at most 1000 / that many calls a
 * second, whatever the pool does.
 *
 * BENCH_BUSY_RATES ("20,50,100,200") and BENCH_BUSY_PHASE_MS (1500) trade time for precision; state
 * on tmpfs unless BENCH_STATE_ROOT names a directory (BENCH_STATE_ROOT=/tmp: on disk).
 */
import { loadavg } from "node:os";
import { ms, ratio, serverLine, startBenchServer, summarize, type Summary } from "./support.ts";
import { groupCpu } from "./process-cpu.ts";
import { openLoop } from "./busy/open-loop.ts";
import { get, rpc, socketPool, taskIdOf, type RpcTarget } from "./peers/client.ts";

const RATES = (process.env["BENCH_BUSY_RATES"] ?? "20,50,100,200").split(",").map(Number);
const PHASE_MS = Number(process.env["BENCH_BUSY_PHASE_MS"] ?? 1500);
const WARMUP_MS = 1000;
/** After the first calls, the wait for what follows them, then the span the runtime's CPU at rest is sampled over. */
const IDLE_SETTLE_MS = 2000;
const IDLE_SAMPLE_MS = 3000;

const ECHO = { name: "echo", arguments: { text: "hello" } };
const QUICK = { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } };

type Series = "bare" | "echo" | "quick" | "create";
const SERIES: readonly Series[] = ["bare", "echo", "quick", "create"];

type Report = (line: string) => void;

/** A plain tools/call that must answer with the tool's own text (not an error, not a still-running pointer). */
async function callOk(target: RpcTarget, params: Record<string, unknown>, text: string): Promise<number> {
  const { ms: took, result } = await rpc(target, "tools/call", params);
  if (result["isError"] === true || !JSON.stringify(result["content"]).includes(text))
    throw new Error(`tools/call did not answer "${text}": ${JSON.stringify(result).slice(0, 200)}`);
  return took;
}

function calls(target: RpcTarget): Record<Series, () => Promise<number>> {
  return {
    bare: () => get(target, "/health"),
    echo: () => callOk(target, ECHO, "hello"),
    quick: () => callOk(target, QUICK, "Processed 1 items."),
    create: async () => {
      const made = await rpc(target, "tools/call", { ...QUICK, task: {} });
      taskIdOf(made.result, target.url);
      return made.ms;
    },
  };
}

export default async function busy(report: Report): Promise<void> {
  const server = await startBenchServer();
  try {
    report(serverLine(server));
    report(`open-loop, one principal, ${PHASE_MS} ms per series per pass, 2 passes; load average at start ${load()}`);
    const target: RpcTarget = { url: server.url, agent: socketPool() };
    const call = calls(target);
    // The first calls load the code and the principal's index: out of every rate's figures.
    for (const series of SERIES) await openLoop(20, 20, call[series]);
    const pid = server.pid();
    const workerdMs = (): number => (pid === undefined ? Number.NaN : (groupCpu(pid).get("workerd") ?? 0));
    // What the runtime spends with no call at all (timers, the dev server's own polling), per ms of a
    // series, taken off each series' CPU: at 20 calls a second it would otherwise add ms to every call.
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const idleFrom = workerdMs();
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
    const idlePerMs = (workerdMs() - idleFrom) / (performance.now() - idleStarted);
    report(`  workerd at rest: ${ms(idlePerMs * 1000)} of CPU a second, taken off the series' CPU below`);
    const rows: { rate: number; at: Record<Series, Summary>; cpu: Record<Series, number> }[] = [];
    for (const rate of RATES) {
      const count = Math.max(1, Math.round((rate * PHASE_MS) / 1000));
      await openLoop(rate, Math.round((rate * WARMUP_MS) / 1000), call.quick);
      const samples: Record<Series, number[]> = { bare: [], echo: [], quick: [], create: [] };
      const cpuMs: Record<Series, number> = { bare: 0, echo: 0, quick: 0, create: 0 };
      for (const order of [SERIES, [...SERIES].reverse()]) {
        for (const series of order) {
          const cpuBefore = workerdMs();
          const started = performance.now();
          const result = await openLoop(rate, count, call[series]);
          cpuMs[series] += workerdMs() - cpuBefore - idlePerMs * (performance.now() - started);
          samples[series].push(...result.latencies);
          if (result.errors > 0) {
            report(`  ${rate}/s ${series}: ${result.errors} of ${count} failed (first: ${result.firstError})`);
            // A server that no longer answers its bare route has died: say why, rather than time out every rate after it.
            await get(target, "/health").catch((error: unknown) => {
              throw new Error(
                `wrangler dev stopped answering (${String(error)}); its last lines:\n${tail(server.logs())}`,
              );
            });
          }
          if (result.meanLagMs > 1)
            report(`  ${rate}/s ${series}: the client ran ${ms(result.meanLagMs)} late on average`);
        }
      }
      const at = {
        bare: summarize(samples.bare),
        echo: summarize(samples.echo),
        quick: summarize(samples.quick),
        create: summarize(samples.create),
      };
      const cpu = {
        bare: cpuMs.bare / (2 * count),
        echo: cpuMs.echo / (2 * count),
        quick: cpuMs.quick / (2 * count),
        create: cpuMs.create / (2 * count),
      };
      rows.push({ rate, at, cpu });
      reportRate(report, rate, at, cpu);
    }
    report("summary (one run; goals: quick / echo p50 ≤ 1.3×, p99 ≤ 2×; creation / bare p50 ≤ 2×):");
    report(
      "  rate    bare p50/p99   echo p50/p99   quick p50/p99   create p50/p99   quick/echo p50 p99   create/bare p50   quick CPU (ceiling)",
    );
    for (const { rate, at, cpu } of rows) {
      const pair = (s: Summary) => `${s.p50.toFixed(1)}/${s.p99.toFixed(1)}`.padEnd(15);
      report(
        `  ${`${rate}/s`.padEnd(7)} ${pair(at.bare)}${pair(at.echo)}${pair(at.quick)} ${pair(at.create)}  ${ratio(at.quick.p50 / at.echo.p50)} ${ratio(at.quick.p99 / at.echo.p99)}         ${ratio(at.create.p50 / at.bare.p50)}            ${cpu.quick.toFixed(1)} ms (${ceiling(cpu.quick)})`,
      );
    }
  } finally {
    await server.stop();
  }
}

/** The calls a second one runtime thread holds at `cpuMs` of its CPU a call. */
const ceiling = (cpuMs: number): string => (cpuMs > 0 ? `≤ ${Math.floor(1000 / cpuMs)}/s` : "n/a");

function reportRate(report: Report, rate: number, at: Record<Series, Summary>, cpu: Record<Series, number>): void {
  report(
    `${rate}/s (n=${at.quick.n} per series; load average ${load()}): p50 / p99 bare ${ms(at.bare.p50)} / ${ms(at.bare.p99)}; echo ${ms(at.echo.p50)} / ${ms(at.echo.p99)}; quick task call ${ms(at.quick.p50)} / ${ms(at.quick.p99)}; creation ${ms(at.create.p50)} / ${ms(at.create.p99)}`,
  );
  report(
    `  quick / echo p50 ${ratio(at.quick.p50 / at.echo.p50)} (goal ≤ 1.3×), p99 ${ratio(at.quick.p99 / at.echo.p99)} (goal ≤ 2×); creation / bare p50 ${ratio(at.create.p50 / at.bare.p50)} (goal ≤ 2×)`,
  );
  report(
    `  workerd CPU a call: bare ${ms(cpu.bare)}, echo ${ms(cpu.echo)}, quick task call ${ms(cpu.quick)} (one thread: ${ceiling(cpu.quick)}), creation ${ms(cpu.create)} (${ceiling(cpu.create)})`,
  );
}

/** The server's last lines, without the per-task transition lines. */
function tail(logs: string): string {
  return logs
    .split("\n")
    .filter((line) => !line.includes("task.transition"))
    .slice(-40)
    .join("\n");
}

function load(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
}
