/**
 * Issue 15's comparison with the peers a user would pick instead, on this machine in one run:
 * ours next to `agents`' createMcpHandler Worker, `agents`' McpAgent Worker (each its own
 * `wrangler dev`, same flags) and the SDK 1.x in-memory task server on Node (bench/peers/, see
 * docs/peers.md). Every figure is printed as a ratio measured in the same run, per run and as the
 * range over runs, in two configurations: "bench" (state on tmpfs, wrangler's local
 * observability off) and "default" (what `npm run dev` does: state on disk, the collector as that script sets it).
 *
 * BENCH_PEERS_RUNS (3), BENCH_PEERS_ROUNDS (150 interleaved latency rounds per run) and
 * BENCH_PEERS_CONFIGS ("bench,default") trade time for precision.
 */
import { loadavg } from "node:os";
import { ms, ratio } from "./support.ts";
import { bundleSize } from "../test/e2e/support/bundle.ts";
import { burstRun, burstTarget, countdownBurst, COUNTS, SECONDS, type BurstRun } from "./peers/concurrency.ts";
import { prepareCreation, sampleCreation, type CreationRun } from "./peers/creation.ts";
import { prepareLatency, sampleLatency, type LatencyRun } from "./peers/latency.ts";
import { PEER_CONFIGS, startNodePeer, startWorkers, type ConfigName } from "./peers/servers.ts";

const RUNS = Number(process.env["BENCH_PEERS_RUNS"] ?? 3);
const ROUNDS = Number(process.env["BENCH_PEERS_ROUNDS"] ?? 150);
const WARMUP_ROUNDS = 20;
/** Rounds of the creation and resume rows (each leaves a 1-s countdown running, as bench/core.bench.ts does). */
const CREATION_ROUNDS = Number(process.env["BENCH_PEERS_CREATION_ROUNDS"] ?? 100);
const CONFIGS = (process.env["BENCH_PEERS_CONFIGS"] ?? "bench,default")
  .split(",")
  .filter((c): c is ConfigName => c === "bench" || c === "default" || c === "collector");
const BUNDLE_GOAL_KIB = 250;

type Report = (line: string) => void;

export default async function peers(report: Report): Promise<void> {
  const ours = await bundleSize();
  const peer = await bundleSize(PEER_CONFIGS.createMcpHandler);
  report(
    `Worker bundle: ours ${ours.gzipKiB.toFixed(1)} KiB gzip (${(ours.rawKiB / 1024).toFixed(2)} MiB raw) = ${ratio(ours.gzipKiB / BUNDLE_GOAL_KIB)} the ${BUNDLE_GOAL_KIB} KiB goal (goal ≤ 1×); createMcpHandler peer ${peer.gzipKiB.toFixed(1)} KiB gzip`,
  );
  const pages = [...ours.modules].filter(([name]) => name.endsWith(".html"));
  report(
    `  of which the pages (text modules): ${pages.map(([name, kib]) => `${name.replace(/^[0-9a-f]+-/, "")} ${kib.toFixed(1)}`).join(", ")} KiB gzip`,
  );

  const node = await startNodePeer();
  try {
    for (const config of CONFIGS) {
      const workers = await startWorkers(config);
      try {
        report("");
        report(
          `-- ${config} config: ${workers.description}; ours ${workers.ours.url}, createMcpHandler ${workers.createMcpHandler.url}, McpAgent ${workers.mcpAgent.url}, Node in-memory tasks ${node.url} (Node ${process.version}); load average ${loadavg()
            .map((l) => l.toFixed(1))
            .join(" ")}`,
        );
        const targets = await prepareLatency(workers, WARMUP_ROUNDS);
        const creationTargets = await prepareCreation(workers.ours.url, node.url, WARMUP_ROUNDS);
        const oursBurst = burstTarget(workers.ours.url);
        const nodeBurst = burstTarget(node.url);
        await Promise.all([countdownBurst(oursBurst, 5), countdownBurst(nodeBurst, 5)]);
        const latency: LatencyRun[] = [];
        const creations: CreationRun[] = [];
        const bursts: BurstRun[] = [];
        for (let run = 1; run <= RUNS; run++) {
          const l = await sampleLatency(targets, ROUNDS);
          latency.push(l);
          reportLatency(report, run, l);
          const c = await sampleCreation(creationTargets, CREATION_ROUNDS);
          creations.push(c);
          reportCreation(report, run, c);
          const b = await burstRun(oursBurst, nodeBurst, run % 2 === 0);
          bursts.push(b);
          reportBursts(report, run, b);
        }
        reportSummary(report, config, latency, creations, bursts);
      } finally {
        await workers.stop();
      }
    }
  } finally {
    await node.stop();
  }
}

function reportLatency(report: Report, run: number, l: LatencyRun): void {
  report(
    `run ${run} (load average ${loadavg()[0]?.toFixed(1)}), latency (n=${l.oursBare.n} each, interleaved): p50 bare ours ${ms(l.oursBare.p50)} / createMcpHandler ${ms(l.peerBare.p50)}; echo ours ${ms(l.oursEcho.p50)} / createMcpHandler ${ms(l.peerEcho.p50)} / McpAgent ${ms(l.agentEcho.p50)}; batch_process plain ${ms(l.oursTaskTool.p50)}; tasks/get ${ms(l.oursTasksGet.p50)} (2026: ${ms(l.oursTasksGet2026.p50)})`,
  );
  report(
    `  p99 bare ours ${ms(l.oursBare.p99)} / createMcpHandler ${ms(l.peerBare.p99)}; echo ours ${ms(l.oursEcho.p99)} / createMcpHandler ${ms(l.peerEcho.p99)} / McpAgent ${ms(l.agentEcho.p99)}; batch_process plain ${ms(l.oursTaskTool.p99)} = ${ratio(l.oursTaskTool.p99 / l.peerEcho.p99)} createMcpHandler echo (goal ≤ 2×); tasks/get ${ms(l.oursTasksGet.p99)} (2026: ${ms(l.oursTasksGet2026.p99)})`,
  );
  report(
    `  bare ${ratio(l.oursBare.p50 / l.peerBare.p50)} createMcpHandler; echo ${ratio(l.oursEcho.p50 / l.peerEcho.p50)} createMcpHandler, ${ratio(l.oursEcho.p50 / l.agentEcho.p50)} McpAgent; batch_process plain ${ratio(l.oursTaskTool.p50 / l.oursEcho.p50)} our echo (goal ≤ 1.3×), ${ratio(l.oursTaskTool.p50 / l.peerEcho.p50)} createMcpHandler echo (goal ≤ 1.3×); tasks/get ${ratio(l.oursTasksGet.p50 / l.oursBare.p50)} our bare, 2026 ${ratio(l.oursTasksGet2026.p50 / l.oursBare.p50)} (goal ≤ 1.5×)`,
  );
}

function reportCreation(report: Report, run: number, c: CreationRun): void {
  report(
    `run ${run}, creation and resume (n=${c.bare.n} each, interleaved): p50 bare ${ms(c.bare.p50)}; creation ${ms(c.create.p50)} (2026: ${ms(c.create2026.p50)}); resume ${ms(c.resume.p50)}`,
  );
  report(
    `  p99 bare ${ms(c.bare.p99)}; creation ${ms(c.create.p99)} = ${ratio(c.create.p99 / c.bare.p99)} bare (2026: ${ms(c.create2026.p99)} = ${ratio(c.create2026.p99 / c.bare.p99)}; goal ≤ 3×); Node creation p50 ${ms(c.nodeCreate.p50)} p99 ${ms(c.nodeCreate.p99)}`,
  );
  report(
    `  tasks/get right after creation p50 ${ms(c.getFresh.p50)} p99 ${ms(c.getFresh.p99)} (max ${ms(c.getFresh.max)}); of a long-finished task p50 ${ms(c.getOld.p50)} p99 ${ms(c.getOld.p99)}; Node's right after creation p50 ${ms(c.nodeGetFresh.p50)} p99 ${ms(c.nodeGetFresh.p99)}; p99 fresh / old ${ratio(c.getFresh.p99 / c.getOld.p99)} (goal ≤ 1.5×), fresh / Node ${ratio(c.getFresh.p99 / c.nodeGetFresh.p99)} (goal ≤ 3×)`,
  );
  report(
    `  creation ${ratio(c.create.p50 / c.bare.p50)} bare, 2026 ${ratio(c.create2026.p50 / c.bare.p50)} (goal ≤ 2×); resume ${ratio(c.resume.p50 / c.bare.p50)} bare (goal ≤ 2×)`,
  );
}

function reportBursts(report: Report, run: number, b: BurstRun): void {
  report(
    `run ${run}, ${SECONDS}-s countdowns as tasks (create → tasks/result): one alone ours ${ms(b.one.ours)} / Node in-memory ${ms(b.one.node)}`,
  );
  for (const count of COUNTS) {
    const { ours, node } = b.at[count];
    const goals = count === 200;
    report(
      `  ${count} at once: ours ${ms(ours.wallMs)} (last created ${ms(ours.createdMs)}), Node ${ms(node.wallMs)} (last created ${ms(node.createdMs)}); ours ${ratio(ours.wallMs / b.one.ours)} one countdown${goals ? " (goal ≤ 1.5×)" : ""}, ${ratio(ours.wallMs / node.wallMs)} Node${goals ? " (goal ≤ 1.2×)" : ""}`,
    );
  }
}

/** One summary line: a label, each run's figure, how to print it, and the issue's goal if it has one. */
type Row = [label: string, perRun: number[], format: (value: number) => string, goal?: string];

function reportSummary(
  report: Report,
  config: ConfigName,
  latency: LatencyRun[],
  creations: CreationRun[],
  bursts: BurstRun[],
): void {
  const p50 = (pick: (l: LatencyRun) => { p50: number }) => latency.map((l) => pick(l).p50);
  const p99 = (pick: (l: LatencyRun) => { p99: number }) => latency.map((l) => pick(l).p99);
  const over = (a: (l: LatencyRun) => { p50: number }, b: (l: LatencyRun) => { p50: number }) =>
    latency.map((l) => a(l).p50 / b(l).p50);
  const s = (value: number) => `${(value / 1000).toFixed(2)} s`;
  const rows: Row[] = [
    ["bare GET /health p50, ours", p50((l) => l.oursBare), ms],
    ["bare GET /health p50, createMcpHandler", p50((l) => l.peerBare), ms],
    [
      "  ours / createMcpHandler",
      over(
        (l) => l.oursBare,
        (l) => l.peerBare,
      ),
      ratio,
    ],
    ["echo p50, ours", p50((l) => l.oursEcho), ms],
    ["echo p50, createMcpHandler", p50((l) => l.peerEcho), ms],
    ["echo p50, McpAgent", p50((l) => l.agentEcho), ms],
    [
      "  ours / createMcpHandler",
      over(
        (l) => l.oursEcho,
        (l) => l.peerEcho,
      ),
      ratio,
    ],
    [
      "  ours / McpAgent",
      over(
        (l) => l.oursEcho,
        (l) => l.agentEcho,
      ),
      ratio,
    ],
    ["batch_process plain p50, ours", p50((l) => l.oursTaskTool), ms],
    [
      "  / our echo",
      over(
        (l) => l.oursTaskTool,
        (l) => l.oursEcho,
      ),
      ratio,
      "≤ 1.3×",
    ],
    [
      "  / createMcpHandler echo",
      over(
        (l) => l.oursTaskTool,
        (l) => l.peerEcho,
      ),
      ratio,
      "≤ 1.3×",
    ],
    ["batch_process plain p99, ours", p99((l) => l.oursTaskTool), ms],
    ["echo p99, createMcpHandler", p99((l) => l.peerEcho), ms],
    [
      "  batch_process p99 / createMcpHandler echo p99",
      latency.map((l) => l.oursTaskTool.p99 / l.peerEcho.p99),
      ratio,
      "≤ 2×",
    ],
    ["tasks/get p50, ours", p50((l) => l.oursTasksGet), ms],
    [
      "  / our bare",
      over(
        (l) => l.oursTasksGet,
        (l) => l.oursBare,
      ),
      ratio,
      "≤ 1.5×",
    ],
    ["tasks/get (2026-07-28) p50, ours", p50((l) => l.oursTasksGet2026), ms],
    [
      "  / our bare",
      over(
        (l) => l.oursTasksGet2026,
        (l) => l.oursBare,
      ),
      ratio,
      "≤ 1.5×",
    ],
    ["bare GET /health p50, creation rounds", creations.map((c) => c.bare.p50), ms],
    ["task creation p50 (countdown 1 s)", creations.map((c) => c.create.p50), ms],
    ["  / bare", creations.map((c) => c.create.p50 / c.bare.p50), ratio, "≤ 2×"],
    ["task creation (2026-07-28) p50", creations.map((c) => c.create2026.p50), ms],
    ["  / bare", creations.map((c) => c.create2026.p50 / c.bare.p50), ratio, "≤ 2×"],
    ["bare GET /health p99, creation rounds", creations.map((c) => c.bare.p99), ms],
    ["task creation p99", creations.map((c) => c.create.p99), ms],
    ["  / bare p99", creations.map((c) => c.create.p99 / c.bare.p99), ratio, "≤ 3×"],
    ["task creation (2026-07-28) p99", creations.map((c) => c.create2026.p99), ms],
    ["  / bare p99", creations.map((c) => c.create2026.p99 / c.bare.p99), ratio, "≤ 3×"],
    ["tasks/get right after creation p99", creations.map((c) => c.getFresh.p99), ms],
    ["tasks/get of a long-finished task p99", creations.map((c) => c.getOld.p99), ms],
    ["  fresh / long-finished", creations.map((c) => c.getFresh.p99 / c.getOld.p99), ratio, "≤ 1.5×"],
    ["Node: tasks/get right after creation p99", creations.map((c) => c.nodeGetFresh.p99), ms],
    ["  ours fresh / Node fresh", creations.map((c) => c.getFresh.p99 / c.nodeGetFresh.p99), ratio, "≤ 3×"],
    ["resume → first replayed event p50", creations.map((c) => c.resume.p50), ms],
    ["  / bare", creations.map((c) => c.resume.p50 / c.bare.p50), ratio, "≤ 2×"],
    ["one countdown alone, ours", bursts.map((b) => b.one.ours), s],
    ["one countdown alone, Node in-memory", bursts.map((b) => b.one.node), s],
  ];
  for (const count of COUNTS) {
    const goals = count === 200;
    rows.push(
      [`${count} at once wall, ours`, bursts.map((b) => b.at[count].ours.wallMs), s],
      [`${count} at once last created, ours`, bursts.map((b) => b.at[count].ours.createdMs), s],
      [`${count} at once wall, Node in-memory`, bursts.map((b) => b.at[count].node.wallMs), s],
      [`${count} at once last created, Node in-memory`, bursts.map((b) => b.at[count].node.createdMs), s],
      [
        "  ours / one countdown",
        bursts.map((b) => b.at[count].ours.wallMs / b.one.ours),
        ratio,
        goals ? "≤ 1.5×" : undefined,
      ],
      [
        "  ours / Node in-memory",
        bursts.map((b) => b.at[count].ours.wallMs / b.at[count].node.wallMs),
        ratio,
        goals ? "≤ 1.2×" : undefined,
      ],
    );
  }
  report(`summary, ${config} config, ${latency.length} run(s) (min – max over runs):`);
  for (const [label, perRun, format, goal] of rows) {
    const range =
      perRun.length > 1
        ? `${format(Math.min(...perRun))} – ${format(Math.max(...perRun))}`
        : format(perRun[0] ?? Number.NaN);
    report(`  ${label.padEnd(44)} ${range}${goal ? `   (goal ${goal})` : ""}`);
  }
}
