// The per-task principal (src/core/model/per-task.ts, `durableTasks({ principal: "per-task" })`):
// every caller of a server without sign-in is it, so the gateway itself lists nothing for it and
// takes no idempotency key, while a task stays reachable by its id alone.
import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { readSettings } from "../../src/config";
import { PER_TASK_PRINCIPAL, TaskGateway } from "../../src/core";
import { gatewayBindings } from "../../src/principals/principal-indexes";
import { until } from "../until";

describe("TaskGateway for the per-task principal", () => {
  const settings = readSettings(env);
  const gateway = () => new TaskGateway(gatewayBindings(env), settings, PER_TASK_PRINCIPAL);

  it("creates a task that any gateway of the principal reads by its id, and lists none of them", async ({ expect }) => {
    const created = await gateway().create({ tool: "countdown", args: { seconds: 1 } });
    if (!created.ok) throw new Error(created.message);
    const { taskId } = created.snapshot.task;
    // Another caller, another request: the id is the whole capability.
    await vi.waitFor(async () => expect((await gateway().get(taskId))?.task.status).toBe("completed"), until(100));
    expect(await gateway().list(undefined)).toEqual({ tasks: [] });
    expect(await gateway().listEntries(undefined)).toEqual({ entries: [] });
    // A guessed id is simply unknown.
    expect(await gateway().get("0".repeat(32))).toBeUndefined();
  });

  it("refuses an idempotency key, in words, and creates nothing", async ({ expect }) => {
    const refused = await gateway().create({ tool: "countdown", args: { seconds: 1 }, idempotencyKey: "1" });
    expect(refused).toEqual({ ok: false, reason: "key_unscoped", message: expect.stringContaining("idempotency") });
  });
});
