/**
 * Interactive Claude Code in a detached tmux pane: on its own tmux socket inside the throwaway HOME,
 * so the test sees and stops only its own tmux server and leaves no socket behind. The screen is read with `capture-pane`; keys go in with `send-keys`.
 */
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { ClaudeHome } from "./claude-cli";
import { claudeBinary } from "./install-claude-code";
import { SERVER_NAME } from "./messages-api";

const run = promisify(execFile);

/** Why the interactive tests cannot run here, or undefined when tmux is on the PATH. */
export function tmuxMissing(): string | undefined {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return undefined;
  } catch {
    return "tmux is not installed (apt-get install tmux): the interactive Claude Code tests need a terminal to drive";
  }
}

export interface Terminal {
  /** The visible screen, as text. */
  screen(): Promise<string>;
  /** Types text (literally) or named keys (`Enter`, `Down`, `Escape`). */
  type(text: string): Promise<void>;
  keys(...names: string[]): Promise<void>;
  /** Resolves with the screen once it matches; rejects with the last screen after `timeoutMs`. */
  waitForScreen(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Resolves with the screen once it differs from `previous`; rejects after `timeoutMs`. */
  waitForChange(previous: string, timeoutMs: number): Promise<string>;
  /**
   * Presses `key` until the screen matches `until`. A key that lands just after a re-render can be
   * handled by the component's previous state and lost, so a key whose effect does not show is sent again.
   */
  press(key: string, until: RegExp, attempts?: number): Promise<string>;
  stop(): Promise<void>;
}

let sessions = 0;

export async function startInteractive(home: ClaudeHome): Promise<Terminal> {
  const socket = join(home.home, `tmux-${++sessions}`);
  const tmux = (...args: string[]) => run("tmux", ["-S", socket, ...args], { env: { ...home.env, TMUX: "" } });
  const env = Object.entries(home.env).flatMap(([key, value]) =>
    value === undefined ? [] : ["-e", `${key}=${value}`],
  );
  await tmux(
    "new-session",
    "-d",
    "-s",
    "claude",
    "-x",
    "160",
    "-y",
    "50",
    "-c",
    home.project,
    ...env,
    claudeBinary(),
    "--permission-mode",
    "default",
    "--allowedTools",
    `mcp__${SERVER_NAME}`,
  );
  const screen = async () => (await tmux("capture-pane", "-p", "-t", "claude")).stdout;
  const waitFor = async (done: (shown: string) => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    // tmux has no "screen changed" event to wait on: look again every 100 ms until the deadline.
    while (Date.now() < deadline) {
      last = await screen().catch(() => last);
      if (done(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the terminal never ${what} within ${timeoutMs} ms; last screen:\n${last}`);
  };
  const waitForScreen = (pattern: RegExp, timeoutMs: number) =>
    waitFor((shown) => pattern.test(shown), timeoutMs, `showed ${pattern}`);
  return {
    screen,
    waitForScreen,
    waitForChange: (previous, timeoutMs) => waitFor((shown) => shown !== previous, timeoutMs, "changed"),
    async press(key, until, attempts = 3) {
      for (let attempt = 1; ; attempt++) {
        await tmux("send-keys", "-t", "claude", key);
        try {
          return await waitForScreen(until, 3000);
        } catch (error) {
          if (attempt >= attempts) throw error;
        }
      }
    },
    type: async (text) => void (await tmux("send-keys", "-t", "claude", "-l", text)),
    keys: async (...names) => void (await tmux("send-keys", "-t", "claude", ...names)),
    async stop() {
      const shown = await tmux("display-message", "-p", "-t", "claude", "#{pane_pid}").catch(() => ({ stdout: "" }));
      const pid = Number(shown.stdout);
      await tmux("kill-server").catch(() => undefined);
      // The CLI writes into the throwaway HOME as it exits: removing the HOME before it is gone fails (ENOTEMPTY).
      if (Number.isInteger(pid) && pid > 0) await exited(pid, 10_000);
    },
  };
}

/** Whether `pid` still runs: a zombie (exited, not yet reaped, as orphans stay where no init reaps them) does not. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Resolves once process `pid` is gone (no exit event for a process we did not spawn: look every 50 ms). */
async function exited(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!running(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Claude Code (pid ${pid}) was still running ${timeoutMs} ms after its tmux server was killed`);
}
