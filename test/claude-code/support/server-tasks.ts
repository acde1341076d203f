/** The dev server's own view of its tasks (plain HTTP, anonymous on loopback), to name the task a call made. */
import * as z from "zod";
import { modern, resultOf } from "../../e2e/support/modern";

const ListSchema = z.object({
  tasks: z.array(z.object({ taskId: z.string(), status: z.string(), tool: z.string() }).loose()),
});

/** The newest task of `tool` on the server (the list is newest first). */
export async function newestTask(baseUrl: string, tool: string): Promise<{ taskId: string; status: string }> {
  const response = await fetch(`${baseUrl}/tasks`);
  if (!response.ok) throw new Error(`GET /tasks: ${response.status} ${await response.text()}`);
  const task = ListSchema.parse(await response.json()).tasks.find((entry) => entry.tool === tool);
  if (!task) throw new Error(`the server has no ${tool} task`);
  return task;
}

const DocSchema = z.object({ taskId: z.string(), status: z.string(), lastUpdatedAt: z.string() }).loose();

/** The task as `GET /tasks/{taskId}` shows it. */
export async function taskDoc(baseUrl: string, taskId: string): Promise<z.infer<typeof DocSchema>> {
  const response = await fetch(`${baseUrl}/tasks/${taskId}`);
  if (!response.ok) throw new Error(`GET /tasks/${taskId}: ${response.status}`);
  return DocSchema.parse(await response.json());
}

export async function cancelTask(baseUrl: string, taskId: string): Promise<void> {
  await fetch(`${baseUrl}/tasks/${taskId}/cancel`, { method: "POST" });
}

/** The `instructions` the server gives in `server/discover`, which print mode speaks. */
export async function discoverInstructions(baseUrl: string): Promise<string> {
  const instructions = resultOf(await modern(baseUrl, "server/discover"))["instructions"];
  if (typeof instructions !== "string") throw new Error("server/discover gave no instructions");
  return instructions;
}
