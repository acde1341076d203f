/**
 * The adopter examples' crash test, one copy: a `countdown` task whose server is SIGKILLed once
 * two seconds are reported, restarted on the same state, and must then finish with each second
 * reported once and one result, as if nothing had happened.
 */
import { expect, vi } from "vitest";
import type { DevServer } from "./wrangler-dev";
import { eventLog, getTask as taskDocument } from "./tasks";
import { failWithLogs } from "./wrangler-dev";
import { until } from "../../until";

/** Kills `server` mid-countdown of `taskId` (a countdown of `seconds`), restarts it, and checks the log. */
export async function countdownSurvivesKill(
  server: Pick<DevServer, "url" | "logs" | "kill" | "restart">,
  taskId: string,
  seconds: number,
): Promise<void> {
  const withServerLogs = (error: unknown): never => failWithLogs(server, error);
  await vi
    .waitFor(async () => {
      expect((await taskDocument(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThanOrEqual(2);
    }, until(200))
    .catch(withServerLogs);
  await server.kill();
  await server.restart();
  await vi
    .waitFor(async () => {
      expect((await taskDocument(server.url, taskId)).status).toBe("completed");
    }, until(250))
    .catch(withServerLogs);
  const log = await eventLog(server.url, taskId);
  expect(log.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]))).toEqual(
    Array.from({ length: seconds }, (_, i) => i + 1),
  );
  expect(log.filter((e) => e.event === "result")).toHaveLength(1);
}
