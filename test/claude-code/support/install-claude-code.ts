/**
 * The pinned Claude Code CLI, installed on demand (about 360 MB, a native binary per platform)
 * into node_modules/.cache rather than as a devDependency, so `npm install` of the template stays
 * lean. `CLAUDE_CODE_BIN` points at a binary already on disk instead. Also the vitest global setup.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const CLAUDE_CODE_VERSION = "2.1.328";
const ROOT = resolve(import.meta.dirname, "../../..");
const CACHE = join(ROOT, "node_modules/.cache", `claude-code-${CLAUDE_CODE_VERSION}`);

export function claudeBinary(): string {
  return process.env["CLAUDE_CODE_BIN"] ?? join(CACHE, "node_modules/.bin/claude");
}

export async function installClaudeCode(): Promise<void> {
  if (existsSync(claudeBinary())) return;
  mkdirSync(CACHE, { recursive: true });
  // Its postinstall links the platform binary into place; allow it, and nothing else.
  writeFileSync(
    join(CACHE, "package.json"),
    JSON.stringify({ private: true, allowScripts: { "@anthropic-ai/claude-code": true } }),
  );
  const npm = process.env["npm_execpath"];
  const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  await new Promise<void>((done, fail) => {
    const child = spawn(
      command,
      [...args, "install", "--no-audit", "--no-fund", "--no-save", `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`],
      { cwd: CACHE, stdio: "inherit" },
    );
    child.on("error", fail);
    child.on("exit", (code) =>
      code === 0
        ? done()
        : fail(new Error(`npm install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} exited ${code}`)),
    );
  });
  if (!existsSync(claudeBinary()))
    throw new Error(
      `installed @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} but found no binary at ${claudeBinary()}`,
    );
}

export default installClaudeCode;
