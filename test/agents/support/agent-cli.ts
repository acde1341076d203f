/**
 * What each agent's launcher gives (clis/*.ts), and running one headless turn of it: a throwaway
 * HOME that holds everything it writes, only the environment it needs, its process group killed
 * if it outlives the turn.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binaryOf, type PinnedCli } from "./install-agents";
import type { Wire } from "./model-turn";

export interface AgentHome {
  home: string;
  /** The folder the agent runs in. */
  project: string;
  env: NodeJS.ProcessEnv;
  /** The command line of one headless turn with this prompt. */
  args(prompt: string): string[];
}

export interface AgentCli {
  name: string;
  cli: PinnedCli;
  wire: Wire;
  /** How long the agent lets one MCP tool call run before it gives up (its default; documented in docs/clients.md). */
  toolTimeoutMs: number;
  /** Its loop detection halts a turn at this many identical tool calls in a row (Gemini CLI, Qwen Code: 5). */
  haltsAtRepeatedCall?: number;
  /** Writes the agent's config into `home` so that it uses `modelUrl` as its model and `mcpUrl` as server "tasks". */
  configure(home: BareHome, modelUrl: string, mcpUrl: string): AgentHome;
}

export interface BareHome {
  home: string;
  project: string;
  /** PATH (Node 22 first), HOME, TMPDIR, locale: add what the agent needs. */
  env: NodeJS.ProcessEnv;
}

export function makeHome(agent: string): BareHome & { remove(): void } {
  const home = mkdtempSync(join(tmpdir(), `${agent}-home-`));
  const project = join(home, "project");
  mkdirSync(project);
  mkdirSync(join(home, "tmp"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    HOME: home,
    TMPDIR: join(home, "tmp"),
    TERM: "dumb",
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    CI: "1",
  };
  return { home, project, env, remove: () => rmSync(home, { recursive: true, force: true }) };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** When it was launched, and how long it ran (ms). */
  started: number;
  ms: number;
}

/** One headless turn to its end; a run that outlives `timeoutMs` is killed (its process group) and reported. */
export function runTurn(agent: AgentCli, home: AgentHome, prompt: string, timeoutMs: number): Promise<Finished> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(binaryOf(agent.cli), home.args(prompt), {
      cwd: home.project,
      env: home.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      reject(
        new Error(
          `${agent.name} ran past ${timeoutMs} ms\nstdout: ${stdout.slice(-3000)}\nstderr: ${stderr.slice(-3000)}`,
        ),
      );
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, started, ms: Date.now() - started });
    });
  });
}
