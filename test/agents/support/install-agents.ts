/**
 * The pinned agent CLIs, installed on demand (together about 1.2 GB, native binaries included) into
 * node_modules/.cache/agents rather than as devDependencies, so `npm install` of the template stays
 * lean. `AGENT_CLIS_DIR` points at another cache folder. Also the vitest global setup.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface PinnedCli {
  /** The npm package and its exact version. */
  pkg: string;
  version: string;
  /** The command it installs in node_modules/.bin. */
  bin: string;
}

export const PINNED = {
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  codex: { pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
  copilot: { pkg: "@github/copilot", version: "1.0.102", bin: "copilot" },
  qwen: { pkg: "@qwen-code/qwen-code", version: "0.24.4", bin: "qwen" },
  opencode: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
} satisfies Record<string, PinnedCli>;

const ROOT = resolve(import.meta.dirname, "../../..");
const CACHE = process.env["AGENT_CLIS_DIR"] ?? join(ROOT, "node_modules/.cache/agents");

function folder(cli: PinnedCli): string {
  return join(CACHE, `${cli.pkg.split("/").at(-1) ?? cli.pkg}-${cli.version}`);
}

export function binaryOf(cli: PinnedCli): string {
  return join(folder(cli), "node_modules/.bin", cli.bin);
}

async function install(cli: PinnedCli): Promise<void> {
  if (existsSync(binaryOf(cli))) return;
  mkdirSync(folder(cli), { recursive: true });
  // Codex and OpenCode link their platform binary in a postinstall: allow that package's script only.
  writeFileSync(
    join(folder(cli), "package.json"),
    JSON.stringify({ private: true, allowScripts: { [cli.pkg]: true } }),
  );
  const npm = process.env["npm_execpath"];
  const [command, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  const spec = `${cli.pkg}@${cli.version}`;
  await new Promise<void>((done, fail) => {
    const child = spawn(command, [...args, "install", "--no-audit", "--no-fund", "--no-save", spec], {
      cwd: folder(cli),
      stdio: "inherit",
    });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`npm install ${spec} exited ${code}`))));
  });
  if (!existsSync(binaryOf(cli))) throw new Error(`installed ${spec} but found no ${cli.bin} at ${binaryOf(cli)}`);
}

/** Installs the CLIs one after another: five parallel npm installs swamp a small machine. */
export default async function installAgents(): Promise<void> {
  for (const cli of Object.values(PINNED)) await install(cli);
}
