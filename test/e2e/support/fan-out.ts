/** Reading a fanned-out task on a dev server: its result and the step consumer's per-batch log lines. */
import { rpc } from "./mcp";
import type { LoggedEvent } from "./tasks";
import type { DevServer } from "./wrangler-dev";

/** tasks/result: waits for the end and returns the tool's result. */
export async function taskResult(
  server: Pick<DevServer, "url" | "logs">,
  taskId: string,
): Promise<Record<string, unknown>> {
  const reply = await rpc(
    server.url,
    { jsonrpc: "2.0", id: 9, method: "tasks/result", params: { taskId } },
    { headers: { Accept: "application/json" } },
  );
  return (reply.body as { result: Record<string, unknown> }).result;
}

/** The step consumer's per-batch lines (`fan_out.batch`) printed since `from`, an offset into the server's output. */
export function batchLines(server: Pick<DevServer, "url" | "logs">, from = 0): Record<string, number>[] {
  return server
    .logs()
    .slice(from)
    .split("\n")
    .filter((line) => line.includes('"fan_out.batch"'))
    .map((line) => JSON.parse(line.slice(line.indexOf("{"))) as Record<string, number>);
}

export const total = (lines: Record<string, number>[], field: string): number =>
  lines.reduce((sum, line) => sum + (line[field] ?? 0), 0);

export const sumOfSquares = (n: number): number => (n * (n + 1) * (2 * n + 1)) / 6;

export const ofType = (log: LoggedEvent[], type: string): LoggedEvent[] => log.filter((e) => e.event === type);
