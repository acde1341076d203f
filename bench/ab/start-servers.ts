/**
 * Starts one `wrangler dev` per config given (this tree's wrangler.toml, a git worktree's), each as
 * the bench starts ours (bench/support.ts: state on tmpfs, the bench's vars), prints their URLs on
 * one line and keeps them up until it is stopped (SIGTERM or SIGINT). With bench/ab/two-servers.ts:
 *
 *   git worktree add ../variant HEAD   # change the variant there (and copy dist/pages into it)
 *   npm exec -- node bench/ab/start-servers.ts wrangler.toml ../variant/wrangler.toml
 *   npm exec -- node bench/ab/two-servers.ts <the two URLs it printed>
 */
import { startBenchServer } from "../support.ts";

const configs = process.argv.slice(2);
if (configs.length === 0)
  throw new Error("name the wrangler configs to start: node bench/ab/start-servers.ts A.toml B.toml");
const servers = await Promise.all(configs.map((config) => startBenchServer({ config, logLevel: "warn" })));
console.log(servers.map((server) => server.url).join(" "));
const stop = async (): Promise<void> => {
  await Promise.all(servers.map((server) => server.stop()));
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
// Nothing else keeps the process alive: the servers are child processes.
setInterval(() => undefined, 1 << 30);
