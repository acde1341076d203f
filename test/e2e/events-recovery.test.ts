// Events survive the process: a webhook delivery in flight when wrangler dev is SIGKILLed (a crash,
// or a deploy's stop) is made again after the restart, from the event log's alarm, with the same
// eventId, and reaches the AI SDK's handler once; a poll cursor taken before the crash resumes after it.
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { startEventReceiver, type EventReceiver } from "./support/event-receiver";
import { modern, resultOf, startTask } from "./support/modern";
import { EVENTS_VARS } from "./support/server-settings";
import { until } from "../until";

// It kills and restarts its server.
const server = ownServer({ vars: EVENTS_VARS });
const alice = { Authorization: "Bearer alice-events-token" };
let receiver: EventReceiver;
let client: MCPClient | undefined;

beforeAll(async () => {
  receiver = await startEventReceiver();
});

afterAll(async () => {
  await client?.close();
  await receiver?.close();
});

const waitUntil = (check: () => boolean | Promise<boolean>): Promise<void> =>
  vi.waitFor(async () => {
    if (!(await check())) throw new Error("not yet");
  }, until());

describe("events across a SIGKILL", () => {
  it("delivers an occurrence whose delivery was in flight at the kill once the server is back, once", async ({
    expect,
  }) => {
    client = await createMCPClient({
      transport: { type: "http", url: `${server.url}/mcp`, headers: alice },
      experimental_events: { store: receiver.store },
    });
    const subscribed = await client.experimental_events.subscribe({
      name: "task.status",
      arguments: { tool: "countdown", status: ["completed"] },
      delivery: { mode: "webhook", url: receiver.url, allowInsecureLocalhost: true },
    });
    await client.close();
    client = undefined;
    const polled = resultOf(
      await modern(server.url, "events/poll", { name: "task.status", arguments: {}, cursor: null }, { headers: alice }),
    );

    receiver.hold();
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, { headers: alice });
    await waitUntil(() => receiver.held() > 0);
    await server.kill();
    receiver.release();
    await server.restart();

    await waitUntil(() => receiver.events.some((event) => event.data["taskId"] === taskId));
    const delivered = receiver.events.filter((event) => event.data["taskId"] === taskId);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.subscriptionId).toBe(subscribed.id);
    // The cursor taken before the crash still reads the log after it.
    const resumed = resultOf(
      await modern(
        server.url,
        "events/poll",
        { name: "task.status", arguments: { taskId }, cursor: polled["cursor"] },
        { headers: alice },
      ),
    );
    expect((resumed["events"] as { data: { status: string } }[]).map((event) => event.data.status)).toEqual([
      "working",
      "completed",
    ]);
  });
});
