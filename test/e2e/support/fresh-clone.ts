/**
 * A fresh clone, as a newcomer has it: the repository's files without anything built (no dist/),
 * in a temporary folder, sharing this checkout's node_modules. Commands run there the way a user
 * types them (`npm exec -- wrangler …`, `npm run dev -- …`).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../../..");

export interface FreshClone {
  dir: string;
  remove(): void;
}

/** The tracked and new (not ignored) files of this checkout, copied; node_modules linked. */
export function freshClone(): FreshClone {
  const dir = mkdtempSync(join(tmpdir(), "mcp-task-worker-clone-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), join(dir, file));
    } catch {
      // a file deleted in the work tree but not yet in the index
    }
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Command {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM then SIGKILL to the command's whole process group (npm, wrangler, workerd). */
  stop(): Promise<void>;
}

/** Runs `command args` in `cwd` in its own process group, as a shell user would. */
export function run(cwd: string, command: string, args: string[]): Command {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      CI: "true",
      NO_COLOR: "1",
    },
  });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  return {
    child,
    output: () => text,
    exited,
    async stop() {
      if (child.exitCode !== null) return;
      signal("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
      signal("SIGKILL");
    },
  };
}

/** Resolves once `url` answers 200, or rejects when the command exits first or after `timeoutMs`. */
export async function answers(url: string, command: Command, timeoutMs = 90_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (command.child.exitCode !== null)
      throw new Error(`the command exited (${command.child.exitCode}) before ${url} answered:\n${command.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return response;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${command.output()}`);
}
