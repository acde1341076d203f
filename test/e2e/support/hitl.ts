/** Helpers for the human-in-the-loop tests: deploy tasks, their questions and answers over plain HTTP. */
import { expect, vi } from "vitest";
import { rpc } from "./mcp";
import { until } from "../../until";

export const DEPLOY = { service: "api", version: "v2" };
export const QUESTION = "Deploy api v2 to production?";
export const YES = { action: "accept", content: { confirm: true } };

/** deploy's words when the client declined or cancelled the question at once, before anyone could see it. */
export const answeredOnItsOwn = (did: "declined" | "cancelled"): string =>
  `Not deployed: the client ${did} "${QUESTION}" on its own, at once, so no one saw or answered the question. Nothing was rolled out. ` +
  "To deploy, call deploy again where a person can answer: from a client that shows them the question, or from one that lets it wait, " +
  "so they can answer it with task_input or in this server's task console (its / page).";

export interface InputRequestDoc {
  method: string;
  params: {
    mode?: string;
    message: string;
    requestedSchema: { type: string; properties: Record<string, { type: string }>; required?: string[] };
  };
}

export interface DeployDoc {
  taskId: string;
  status: string;
  statusMessage?: string;
  inputRequests?: Record<string, InputRequestDoc>;
  result?: { content: { type: string; text: string }[]; isError?: boolean };
  progress?: { progress: number; total?: number };
}

/** Starts deploy as a task (task-augmented tools/call, stateless) and returns its id. */
export async function startDeploy(
  baseUrl: string,
  headers: Record<string, string> = {},
  args: Record<string, unknown> = DEPLOY,
): Promise<string> {
  const reply = await rpc(
    baseUrl,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "deploy", arguments: args, task: { ttl: 600_000 } },
    },
    { headers },
  );
  const taskId = (reply.body as { result?: { task?: { taskId?: string } } } | undefined)?.result?.task?.taskId;
  if (!taskId) throw new Error(`no task created: ${reply.status} ${reply.text}`);
  return taskId;
}

export async function taskDoc(
  baseUrl: string,
  taskId: string,
  headers: Record<string, string> = {},
): Promise<DeployDoc> {
  const response = await fetch(`${baseUrl}/tasks/${taskId}`, { headers });
  if (!response.ok) throw new Error(`GET /tasks/${taskId}: ${response.status}`);
  return (await response.json()) as DeployDoc;
}

const settle = until(100);

/** Waits until the task has status `status`; returns its document. */
export async function waitForStatus(
  baseUrl: string,
  taskId: string,
  status: string,
  headers: Record<string, string> = {},
): Promise<DeployDoc> {
  let doc: DeployDoc | undefined;
  await vi.waitFor(async () => {
    doc = await taskDoc(baseUrl, taskId, headers);
    expect(doc.status).toBe(status);
  }, settle);
  if (!doc) throw new Error("unreachable");
  return doc;
}

/** POST /tasks/{id}/input. */
export async function postInput(baseUrl: string, taskId: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}/tasks/${taskId}/input`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The names of the task's `step` events, from its event log (the task must have ended). */
export async function stepNames(
  baseUrl: string,
  taskId: string,
  headers: Record<string, string> = {},
): Promise<string[]> {
  const text = await (await fetch(`${baseUrl}/tasks/${taskId}/events`, { headers })).text();
  const names: string[] = [];
  for (const block of text.split("\n\n")) {
    if (!block.includes("event: step")) continue;
    const data = block.split("\n").find((line) => line.startsWith("data: "));
    if (data) names.push((JSON.parse(data.slice(6)) as { name: string }).name);
  }
  return names;
}

export const textOf = (result: { content?: { type: string; text?: string }[] } | undefined): string =>
  (result?.content ?? []).map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("\n");
