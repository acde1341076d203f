/**
 * Starts a real `wrangler dev` (workerd: no eval, real Durable Objects, alarms and queues)
 * on a free port with its own state directory, for end-to-end tests and the benchmark.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface DevServer {
  url: string;
  port: number;
  stateDir: string;
  /** The V8 inspector's port for the Worker (bench/ab/profile.ts takes CPU profiles through it). */
  inspectorPort(): number;
  /** Output so far, for diagnosing a failed test. */
  logs(): string;
  /** The wrangler process's id (the leader of its process group, workerd included), while it runs. */
  pid(): number | undefined;
  /** SIGKILL the whole process group (wrangler and workerd), as a crash would. */
  kill(): Promise<void>;
  /** Start again on the same port and state directory. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** On a failed wait, shows the end of what the server said (these tests run on a shared, busy machine), then rethrows. */
export function failWithLogs(server: Pick<DevServer, "logs"> | undefined, error: unknown): never {
  if (server) console.error(server.logs().slice(-4000));
  throw error;
}

export interface DevServerOptions {
  vars?: Record<string, string>;
  stateDir?: string;
  /** Where a fresh state directory is made when `stateDir` is not given (default: the OS temp dir). */
  stateRoot?: string;
  /**
   * wrangler's local observability collector (on by default in `wrangler dev`) traces every
   * invocation: it measured about a third of the Worker thread's CPU per task. Tests and the
   * benchmark leave it off unless asked, since nothing they check reads it.
   */
  observability?: boolean;
  startTimeoutMs?: number;
  /** Another Worker's wrangler config, relative to the repo root (the benchmark's peers); default: ours. */
  config?: string;
  /** A file of secrets read instead of the repo's `.dev.vars` (wrangler's `--env-file`). */
  envFile?: string;
  /** More environment for the wrangler process (the A/B bench's variants). */
  processEnv?: Record<string, string>;
  /** wrangler's `--log-level` (default info: the tests read the task transition lines, logged at info). */
  logLevel?: "debug" | "info" | "log" | "warn" | "error" | "none";
}

const ROOT = resolve(import.meta.dirname, "../../..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.unref();
    server.on("error", rej);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? res(address.port) : rej(new Error("no port"))));
    });
  });
}

/** wrangler dev refused to start because a port it was given or picked itself was taken meanwhile. */
const PORT_TAKEN = /Address already in use/;
/** Launches a run of tests can retry after such a race with another server starting in parallel. */
const LAUNCH_ATTEMPTS = 3;
/** The log levels at which wrangler prints its "Ready on <url>" line. */
const READY_LINE_LEVELS: readonly string[] = ["debug", "info", "log"];

export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const printsReady = READY_LINE_LEVELS.includes(options.logLevel ?? "info");
  let port = await freePort();
  let inspectorPort = await freePort();
  const ownsState = options.stateDir === undefined;
  const stateDir = options.stateDir ?? mkdtempSync(join(options.stateRoot ?? tmpdir(), "mcp-task-worker-"));
  let url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = "";

  const launch = async () => {
    const args = [
      WRANGLER,
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      "--log-level",
      options.logLevel ?? "info",
    ];
    if (options.config !== undefined) args.push("--config", options.config);
    if (options.envFile !== undefined) args.push("--env-file", options.envFile);
    for (const [key, value] of Object.entries(options.vars ?? {})) args.push("--var", `${key}:${value}`);
    child = spawn(process.execPath, args, {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        CI: "true",
        NO_COLOR: "1",
        X_LOCAL_OBSERVABILITY: options.observability ? "true" : "false",
        ...options.processEnv,
      },
    });
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
    const from = output.length;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`wrangler dev exited early (${child.exitCode}):\n${output}`);
      const ours = output.slice(from);
      // Another run's server may hold the port and answer /health: only our own "Ready on" line
      // says the server at `url` is this one (a run beside another once tested the other's server).
      if (PORT_TAKEN.test(ours)) throw new Error(`wrangler dev could not take its port:\n${output}`);
      if (printsReady && !ours.includes(`Ready on ${url}`)) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      try {
        // wrangler dev holds requests while its build is broken: without a time limit this fetch
        // would outwait the start deadline (and the test's hook) instead of failing it.
        const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
        if (response.ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`wrangler dev did not start within the timeout:\n${output}`);
  };

  const killGroup = async (signal: NodeJS.Signals) => {
    const current = child;
    if (!current?.pid || current.exitCode !== null) return;
    const exited = new Promise<void>((r) => current.once("exit", () => r()));
    try {
      process.kill(-current.pid, signal);
    } catch {
      return;
    }
    // unref: a stop that has ended leaves no 10 s timer holding the process (the e2e run's end waited on it).
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
  };

  /**
   * Launches again after a port race (freePort's port, or one wrangler picks for its runtime, taken
   * by a server another test file started meanwhile). A first start may move to a new port; a
   * restart keeps its port, which its clients know.
   */
  const launchRetrying = async (movable: boolean) => {
    for (let attempt = 1; ; attempt++) {
      const before = output.length;
      try {
        return await launch();
      } catch (error) {
        if (attempt >= LAUNCH_ATTEMPTS || !PORT_TAKEN.test(output.slice(before))) {
          // A server that never came up is still running (a broken build waits for a fix): stop it.
          await killGroup("SIGKILL");
          if (movable && ownsState) rmSync(stateDir, { recursive: true, force: true });
          throw error;
        }
        await killGroup("SIGKILL");
        inspectorPort = await freePort();
        if (movable) {
          port = await freePort();
          url = `http://127.0.0.1:${port}`;
        }
      }
    }
  };

  await launchRetrying(true);
  return {
    url,
    port,
    stateDir,
    inspectorPort: () => inspectorPort,
    logs: () => output,
    pid: () => child?.pid,
    kill: () => killGroup("SIGKILL"),
    async restart() {
      await killGroup("SIGKILL");
      await launchRetrying(false);
    },
    async stop() {
      await killGroup("SIGTERM");
      await killGroup("SIGKILL");
      if (ownsState) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
