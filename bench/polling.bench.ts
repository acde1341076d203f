/**
 * Polling that costs little and loses no time (docs/polling.md): a 2026-07-28 client that calls
 * `tasks/get` only at the `pollIntervalMs` it is told, as interactive Claude Code does, follows a
 * 90-s and a 3-s `countdown` on local `wrangler dev`. Goal: ≤ 15 `tasks/get` for the 90-s task, its
 * end seen ≤ 3 s after it happens, ≤ 1.5 s for the 3-s one. Beside them, a client polling every
 * second whatever it is told (what the fixed 1-s interval cost before) follows another 90-s task.
 */
import { loadavg } from "node:os";
import { followTask, type FollowedTask } from "../test/e2e/support/poll-follower.ts";
import { serverLine, startBenchServer } from "./support.ts";

const SHORT_RUNS = 5;

const line = (name: string, f: FollowedTask): string =>
  `${name}: ${f.status}, ${f.gets} tasks/get, end seen ${(f.lateMs / 1000).toFixed(2)} s late (reply ${(f.lateReplyMs / 1000).toFixed(2)} s); told ${f.told.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s`;

export default async function polling(report: (line: string) => void): Promise<void> {
  const server = await startBenchServer();
  try {
    report(
      `${serverLine(server)}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    // The long followers run beside the short ones: the 90 s are spent once.
    const long = followTask(server.url, 90);
    const fixed = followTask(server.url, 90, { fixedMs: 1000 });
    const short: FollowedTask[] = [];
    for (let i = 0; i < SHORT_RUNS; i++) short.push(await followTask(server.url, 3));
    for (const [i, f] of short.entries()) report(line(`3-s countdown #${i + 1}`, f));
    const worst = short.reduce((a, b) => (b.lateMs > a.lateMs ? b : a));
    const goalShort = short.every((f) => f.lateMs <= 1500);
    report(
      `3-s countdown: ${Math.max(...short.map((f) => f.gets))} tasks/get at most, end seen ${(worst.lateMs / 1000).toFixed(2)} s late at worst (goal ≤ 1.5 s: ${goalShort ? "met" : "MISSED"})`,
    );
    const [followed, polledEverySecond] = await Promise.all([long, fixed]);
    report(line("90-s countdown", followed));
    report(
      `90-s countdown: goal ≤ 15 tasks/get and ≤ 3 s late: ${followed.gets <= 15 && followed.lateMs <= 3000 ? "met" : "MISSED"}`,
    );
    report(
      line("90-s countdown polled every 1 s (the fixed interval before)", polledEverySecond).replace(/; told .*/, ""),
    );
  } finally {
    await server.stop();
  }
}
