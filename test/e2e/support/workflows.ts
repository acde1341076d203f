/** Helpers for the Workflow-backed tool tests: publish_report tasks, their event log, and the instance as wrangler's local Workflows API sees it. */
import * as z from "zod";
import { rpc } from "./mcp";
import type { LoggedEvent } from "./tasks";
import { taskDoc, type DeployDoc } from "./hitl";

export const WORKFLOW = "mcp-task-publish-report";

export const question = (pages: number): string => `Publish the report of ${pages} pages?`;
export const YES = { action: "accept", content: { publish: true } };
export const NO = { action: "accept", content: { publish: false } };

/** Starts publish_report as a task (2025-11-25, task-augmented tools/call) and returns its id. */
export async function startPublish(
  baseUrl: string,
  pages: number,
  headers: Record<string, string> = {},
): Promise<string> {
  const reply = await rpc(
    baseUrl,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "publish_report", arguments: { pages }, task: { ttl: 600_000 } },
    },
    { headers },
  );
  const taskId = (reply.body as { result?: { task?: { taskId?: string } } } | undefined)?.result?.task?.taskId;
  if (!taskId) throw new Error(`no task created: ${reply.status} ${reply.text}`);
  return taskId;
}

export const stepsOf = (events: LoggedEvent[]): string[] =>
  events.filter((e) => e.event === "step").map((e) => String(e.data["name"]));
export const progressOf = (events: LoggedEvent[]): number[] =>
  events.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]));
export const pageSteps = (pages: number): string[] => Array.from({ length: pages }, (_, i) => `page ${i + 1}`);

const LocalApiAnswer = z.object({ success: z.boolean(), result: z.unknown(), errors: z.unknown() });

/**
 * wrangler dev's local Workflows API, the one `wrangler workflows … --local` calls: asked over HTTP
 * rather than through the CLI, whose every start costs seconds of CPU (tens under load).
 */
async function localWorkflowsApi(port: number, taskId: string, path = "", init: RequestInit = {}): Promise<unknown> {
  const instance = `workflows/${WORKFLOW}/instances/${encodeURIComponent(taskId)}`;
  const url = `http://127.0.0.1:${port}/cdn-cgi/local/explorer/api/${instance}${path}`;
  const response = await fetch(url, init);
  const body = LocalApiAnswer.parse(await response.json());
  if (!response.ok || !body.success) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(body.errors)}`);
  return body.result;
}

/** The instance as `wrangler workflows instances describe --local` reports it. */
export async function instanceStatus(port: number, taskId: string): Promise<{ status: string }> {
  return z.looseObject({ status: z.string() }).parse(await localWorkflowsApi(port, taskId));
}

/** Terminates the instance from outside MCP, as `wrangler workflows instances terminate --local` does. */
export async function terminateInstance(port: number, taskId: string): Promise<void> {
  const headers = { "Content-Type": "application/json" };
  const body = JSON.stringify({ status: "terminate" });
  await localWorkflowsApi(port, taskId, "/status", { method: "PATCH", headers, body });
}

export type { DeployDoc };
export { taskDoc };
