/** Helpers for the Workflow-backed tool tests: publish_report tasks, their event log, and the instance as wrangler's local Workflows API sees it. */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { rpc } from "./mcp";
import type { LoggedEvent } from "./tasks";
import { taskDoc, type DeployDoc } from "./hitl";

const ROOT = resolve(import.meta.dirname, "../../..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");
export const WORKFLOW = "mcp-task-publish-report";

export const question = (pages: number): string => `Publish the report of ${pages} pages?`;
export const YES = { action: "accept", content: { publish: true } };
export const NO = { action: "accept", content: { publish: false } };

/** Starts publish_report as a task (2025-11-25, task-augmented tools/call) and returns its id. */
export async function startPublish(baseUrl: string, pages: number, headers: Record<string, string> = {}): Promise<string> {
  const reply = await rpc(baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "publish_report", arguments: { pages }, task: { ttl: 600_000 } } }, { headers });
  const taskId = (reply.body as { result?: { task?: { taskId?: string } } } | undefined)?.result?.task?.taskId;
  if (!taskId) throw new Error(`no task created: ${reply.status} ${reply.text}`);
  return taskId;
}


export const stepsOf = (events: LoggedEvent[]): string[] => events.filter((e) => e.event === "step").map((e) => String(e.data["name"]));
export const progressOf = (events: LoggedEvent[]): number[] => events.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]));
export const pageSteps = (pages: number): string[] => Array.from({ length: pages }, (_, i) => `page ${i + 1}`);

/** The instance as `wrangler workflows instances describe --local` reports it. */
export async function instanceStatus(port: number, taskId: string): Promise<{ status: string; steps: { name: string; attempts?: unknown[] }[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, [WRANGLER, "workflows", "instances", "describe", WORKFLOW, taskId, "--local", "--port", String(port), "--json"], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" },
  });
  return JSON.parse(stdout.slice(stdout.indexOf("{"))) as { status: string; steps: { name: string }[] };
}

export type { DeployDoc };
export { taskDoc };
