/**
 * Starts the servers the peers section compares, in one of these configurations:
 * - "bench": state on tmpfs and wrangler's local observability collector off (what the other
 *   bench sections use, see bench/support.ts);
 * - "default": what `npm run dev` does — state on disk under `.wrangler/`, the collector as that
 *   script sets it (read from package.json: off unless X_LOCAL_OBSERVABILITY=true);
 * - "collector": `wrangler dev` out of the box — state on disk, collector on (npm run dev before
 *   issue 15; run it with BENCH_PEERS_CONFIGS=collector).
 * Every Worker (ours and the two peers) gets the same configuration. Ours gets the bench's raised
 * limits (they change admission, not speed). The Node peer has neither wrangler nor state, so it is
 * started once and shared by every configuration.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { startDevServer, type DevServer } from "../../test/e2e/support/wrangler-dev.ts";
import { devScript, STATE_ROOT, startBenchServer } from "../support.ts";

export type ConfigName = "bench" | "default" | "collector";

/** Whether `npm run dev` runs wrangler's local observability collector, read from its script. */
export function devScriptObservability(): boolean {
  const setting = /X_LOCAL_OBSERVABILITY=(?:\$\{X_LOCAL_OBSERVABILITY:-)?(true|false)/.exec(devScript())?.[1];
  // Not set in the script: wrangler's own default, on.
  return setting !== "false";
}

export interface WorkerSet {
  config: ConfigName;
  /** Where state lives and whether the collector runs, for the report. */
  description: string;
  ours: DevServer;
  createMcpHandler: DevServer;
  mcpAgent: DevServer;
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, "../..");
export const PEER_CONFIGS = {
  createMcpHandler: "bench/peers/workers/create-mcp-handler/wrangler.toml",
  mcpAgent: "bench/peers/workers/mcp-agent/wrangler.toml",
} as const;

export async function startWorkers(config: ConfigName): Promise<WorkerSet> {
  const stateRoot = config === "bench" ? STATE_ROOT : join(ROOT, ".wrangler", "bench-state");
  if (stateRoot !== undefined) mkdirSync(stateRoot, { recursive: true });
  const observability = config === "collector" || (config === "default" && devScriptObservability());
  const description = `state in ${stateRoot ?? "the OS temp dir"}; wrangler's local observability ${observability ? "on" : "off"}`;
  const started: DevServer[] = [];
  const track = async (server: Promise<DevServer>) => {
    const s = await server;
    started.push(s);
    return s;
  };
  try {
    // One after another: three wrangler starts at once on two cores time out now and then.
    const ours = await track(startBenchServer({ observability, ...(stateRoot !== undefined && { stateRoot }) }));
    const createMcpHandler = await track(
      startDevServer({
        config: PEER_CONFIGS.createMcpHandler,
        observability,
        ...(stateRoot !== undefined && { stateRoot }),
      }),
    );
    const mcpAgent = await track(
      startDevServer({ config: PEER_CONFIGS.mcpAgent, observability, ...(stateRoot !== undefined && { stateRoot }) }),
    );
    return { config, description, ours, createMcpHandler, mcpAgent, stop: () => stopAll(started) };
  } catch (error) {
    await stopAll(started);
    throw error;
  }
}

async function stopAll(servers: DevServer[]): Promise<void> {
  await Promise.all(servers.map((s) => s.stop()));
}

export interface NodePeer {
  url: string;
  stop(): Promise<void>;
}

/** The SDK's in-memory task server, in its own Node process (so it does not share the client's event loop). */
export async function startNodePeer(): Promise<NodePeer> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, "bench/peers/node-tasks/server.ts"), "0"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Node peer did not start:\n${output}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`the Node peer exited (${code}):\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
