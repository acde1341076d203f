// Third-party clients against a real `wrangler dev`, configured as docs/clients.md
// says: mcp-remote (Claude Desktop's stdio bridge, driven here by the SDK's StdioClientTransport the
// way Claude Desktop drives it) and the MCP Inspector's `--cli`. Both come from devDependencies.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { sharedServer } from "./support/dev-server";
import { CLIENTS_TOKEN, MIDDLE_INLINE_VARS } from "./support/server-settings";
import { until } from "../until";

const ROOT = resolve(import.meta.dirname, "../..");
const MCP_REMOTE = join(ROOT, "node_modules/mcp-remote/dist/proxy.js");
const INSPECTOR = join(ROOT, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
const AUTH_HEADER = `Authorization: Bearer ${CLIENTS_TOKEN}`;

// A principal of its own on the 8 s server (support/server-settings.ts): its 15 s call outlasts the wait.
const server = sharedServer(MIDDLE_INLINE_VARS);
let home: string;

beforeAll(async () => {
  // A deployed server's setting (a bearer token), and an inline budget short enough to see the fallback.
  home = mkdtempSync(join(tmpdir(), "mcp-clients-"));
});

afterAll(async () => {
  if (home) rmSync(home, { recursive: true, force: true });
});

interface Content {
  type: string;
  text?: string;
  uri?: string;
}
interface ToolReply {
  content: Content[];
  isError?: boolean;
  structuredContent?: { status?: string };
}
const textOf = (reply: ToolReply) =>
  reply.content.flatMap((c) => (c.type === "text" && c.text ? [c.text] : [])).join("\n");

describe("mcp-remote 0.15.1 (Claude Desktop's bridge)", () => {
  let client: Client;
  let bridgeLog = "";

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, `${server.url}/mcp`, "--header", AUTH_HEADER],
      env: { MCP_REMOTE_CONFIG_DIR: join(home, "mcp-remote") },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (bridgeLog += chunk.toString()));
    client = new Client({ name: "claude-desktop-like", version: "1.0.0" });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolReply;

  it("lists the tools over stdio", async ({ expect }) => {
    const { tools } = await client.listTools();
    expect(
      tools.map((t) => t.name),
      bridgeLog,
    ).toEqual(expect.arrayContaining(["countdown", "batch_process", "task_status", "task_result"]));
  });

  it("calls countdown and gets its result inline", async ({ expect }) => {
    const reply = await call("countdown", { seconds: 2 });
    expect(reply.content, bridgeLog).toEqual([{ type: "text", text: "Countdown of 2 s finished." }]);
  });

  it("gets the check-back link for a call longer than the inline budget, and finishes it with task_status and task_result", async ({
    expect,
  }) => {
    const first = await call("countdown", { seconds: 15 });
    const link = first.content.find((c) => c.type === "resource_link");
    const taskId = /^task:\/\/([0-9a-f]{32})$/.exec(link?.uri ?? "")?.[1];
    expect(taskId, JSON.stringify(first)).toBeDefined();
    expect(textOf(first)).toContain("task_result");
    await vi.waitFor(
      async () => expect((await call("task_status", { taskId })).structuredContent?.status).toBe("completed"),
      until(1000),
    );
    expect((await call("task_result", { taskId })).content).toEqual([
      { type: "text", text: "Countdown of 15 s finished." },
    ]);
  });
});

/** Runs the Inspector's CLI mode; its stdout is the JSON result. */
function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [INSPECTOR, "--cli", `${server.url}/mcp`, "--transport", "http", ...args, "--header", AUTH_HEADER],
      {
        env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, "inspector-catalog.json") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("MCP Inspector 2.12.0 --cli", () => {
  it("lists the tools with their task support", async ({ expect }) => {
    const run = await inspector(["--method", "tools/list"]);
    expect(run.code, run.stderr).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string; execution?: { taskSupport?: string } }[] };
    expect(tools.find((t) => t.name === "countdown")?.execution?.taskSupport).toBe("optional");
    expect(tools.find((t) => t.name === "echo")?.execution?.taskSupport).toBe("forbidden");
  });

  it("calls countdown with a tool argument", async ({ expect }) => {
    const run = await inspector(["--method", "tools/call", "--tool-name", "countdown", "--tool-arg", "seconds=2"]);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as ToolReply).content).toEqual([
      { type: "text", text: "Countdown of 2 s finished." },
    ]);
  });

  it("--protocol-era modern speaks 2026-07-28 (results carry resultType)", async ({ expect }) => {
    const listed = await inspector(["--method", "tools/list", "--protocol-era", "modern"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain(
      "build_report",
    );
    const run = await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "countdown",
      "--tool-arg",
      "seconds=1",
      "--protocol-era",
      "modern",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      content: [{ type: "text", text: "Countdown of 1 s finished." }],
      structuredContent: { summary: "Countdown of 1 s finished." },
      resultType: "complete",
    });
  });
});
