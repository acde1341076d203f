/**
 * CPU used by a `wrangler dev` server: every process of its process group (wrangler, workerd), user
 * + system time from /proc, by command name. Load barely moves it, unlike wall time. wrangler runs
 * two workerd processes: its proxy on the dev port, and the runtime of the Worker and its objects
 * (the one with an inspector), told apart as "workerd (proxy)" and "workerd".
 */
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 1000 / 100; // USER_HZ

/** User + system CPU ms of every process whose process group is `pgid`, by command name. */
export function groupCpu(pgid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const name = command === "workerd" && !isRuntime(entry) ? "workerd (proxy)" : command;
    byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS);
  }
  return byName;
}

export const total = (byName: Map<string, number>): number => [...byName.values()].reduce((a, b) => a + b, 0);

/** Whether workerd process `pid` runs the Worker itself (wrangler gives that one the inspector), not the proxy. */
function isRuntime(pid: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--inspector-addr");
  } catch {
    return false;
  }
}
