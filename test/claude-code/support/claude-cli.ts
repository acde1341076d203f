/**
 * Runs the real Claude Code CLI against our server in a throwaway HOME: no updater, no telemetry,
 * the model replaced by the stand-in Messages API. The pinned binary is installed on demand into
 * a cache folder by `install-claude-code.ts` (the vitest global setup).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claudeBinary } from "./install-claude-code";
import { SERVER_NAME } from "./messages-api";

export interface ClaudeHome {
  home: string;
  /** The folder Claude Code runs in (trusted in the throwaway config). */
  project: string;
  env: NodeJS.ProcessEnv;
  remove(): void;
}

/** The API key the stand-in accepts; pre-approved in the throwaway config so interactive mode asks nothing. */
const API_KEY = "sk-ant-standin-0000000000000000";

/** A fresh HOME whose `~/.claude.json` has onboarding, folder trust and the API key already settled. */
export function makeClaudeHome(messagesApiUrl: string): ClaudeHome {
  const home = mkdtempSync(join(tmpdir(), "claude-home-"));
  const project = mkdtempSync(join(tmpdir(), "claude-project-"));
  const config = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: "2.1.328",
    theme: "dark",
    bypassPermissionsModeAccepted: false,
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  };
  writeFileSync(join(home, ".claude.json"), JSON.stringify(config, null, 2));
  // Our tools pre-allowed and the plain permission mode: auto mode's safety check needs Anthropic's servers.
  mkdirSync(join(home, ".claude"));
  // Its scratch files (TMPDIR) go inside HOME too, so removing HOME removes everything it wrote.
  mkdirSync(join(home, "tmp"));
  writeFileSync(
    join(home, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: [`mcp__${SERVER_NAME}`], defaultMode: "default" } }, null, 2),
  );
  // Only what the CLI needs: nothing of the caller's own Claude or Anthropic setup leaks in.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    HOME: home,
    TMPDIR: join(home, "tmp"),
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // A harness bug (a stand-in reply it rejects) should fail fast, not back off for minutes.
    CLAUDE_CODE_MAX_RETRIES: "1",
    ANTHROPIC_BASE_URL: messagesApiUrl,
    ANTHROPIC_API_KEY: API_KEY,
  };
  return {
    home,
    project,
    env,
    remove() {
      rmSync(home, { recursive: true, force: true });
      rmSync(project, { recursive: true, force: true });
    },
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end; a run that outlives `timeoutMs` is killed (its process group) and reported. */
export function runClaude(home: ClaudeHome, args: string[], timeoutMs: number): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(claudeBinary(), args, {
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
          `claude ${args.slice(0, 2).join(" ")} ran past ${timeoutMs} ms\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`,
        ),
      );
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `claude mcp add -s user --transport http tasks <url>/mcp`, as the README tells a user. */
export async function addServer(home: ClaudeHome, serverUrl: string): Promise<void> {
  const added = await runClaude(
    home,
    ["mcp", "add", "-s", "user", "--transport", "http", SERVER_NAME, `${serverUrl}/mcp`],
    60_000,
  );
  if (added.code !== 0) throw new Error(`claude mcp add failed (${added.code}): ${added.stdout}${added.stderr}`);
}

/** One print-mode turn (`claude -p`), as a headless user runs it: stream-json output, our tools allowed. */
export function printMode(home: ClaudeHome, prompt: string, timeoutMs: number): Promise<Finished> {
  const args = [
    "-p",
    prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--allowedTools",
    `mcp__${SERVER_NAME}`,
    "--debug-file",
    join(home.home, "debug.log"),
  ];
  return runClaude(home, args, timeoutMs);
}
