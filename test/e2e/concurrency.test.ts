// Durable names on the real runtime (issue 41): a tool that runs steps at once, publishes after
// them, sleeps durably, fans out and publishes from items.map(async ...) (test/fixtures/concurrency),
// replayed by its own sleeps, its fan-out and SIGKILLs of wrangler dev. Release 0.1 slept twice,
// fanned out twice and published "x" twice here; every effect must happen once.
import { describe, it, vi, type ExpectStatic } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { eventLog, getTask, startTask, type LoggedEvent } from "./support/tasks";
import { until } from "../until";

// A run yields at a sleep past its 1 s slice, so each 6 s sleep ends the run and the alarm resumes it.
const server = ownServer({
  config: "test/fixtures/concurrency/wrangler.toml",
  vars: { RUN_SLICE_MS: "1000", LEASE_MS: "3000" },
});
const withServerLogs = (error: unknown): never => failWithLogs(server, error);

interface Piece {
  n: number;
  content: { type: string; text?: string };
}

async function pieces(taskId: string): Promise<string[]> {
  const doc = (await (await fetch(`${server.url}/tasks/${taskId}`)).json()) as { partial?: { pieces?: Piece[] } };
  return (doc.partial?.pieces ?? []).map((p) => p.content.text ?? "");
}

const ITEMS = [1, 2, 3, 4, 5].map((i) => `Item ${i}: ${i * 10}.`);

/** What the task did, counted from its event log: each must be once. */
function effects(log: LoggedEvent[]) {
  const statusMessages = log
    .filter((e) => e.event === "status")
    .map((e) =>
      String(
        (e.data["task"] as { statusMessage?: string } | undefined)?.statusMessage ?? e.data["statusMessage"] ?? "",
      ),
    );
  return {
    steps: log.filter((e) => e.event === "step").map((e) => String(e.data["name"])),
    itemRuns: log.filter((e) => e.event === "log" && /square ran for/.test(String(e.data["message"]))).length,
    firstSleeps: statusMessages.filter((m) => /^Waiting until .*the first sleep/.test(m)).length,
    secondSleeps: statusMessages.filter((m) => /^Waiting until .*the second sleep/.test(m)).length,
    results: log.filter((e) => e.event === "result").length,
  };
}

async function expectOnce(expect: ExpectStatic, taskId: string) {
  await vi
    .waitFor(async () => expect((await getTask(server.url, taskId)).status).toBe("completed"), until(500))
    .catch(withServerLogs);
  const texts = await pieces(taskId);
  expect(texts.slice(0, 2)).toEqual(["x", "y"]);
  expect([...texts.slice(2)].sort()).toEqual(ITEMS);
  const log = await eventLog(server.url, taskId);
  const done = effects(log);
  // Replays of unchanged code, however interleaved, never look like a changed journal (issue 50).
  expect(log.filter((e) => e.event === "log" && /journal does not match/.test(String(e.data["message"])))).toEqual([]);
  expect([...done.steps].sort()).toEqual(
    ["a", "b", "item 1", "item 2", "item 3", "item 4", "item 5", "square[0]", "square[1]", "square[2]"].sort(),
  );
  expect(done).toMatchObject({ itemRuns: 3, firstSleeps: 1, secondSleeps: 1, results: 1 });
  expect((await getTask(server.url, taskId)).result).toMatchObject({
    content: [{ type: "text", text: "Squares 1, 4, 9." }],
  });
}

describe("a tool that does several things at once, replayed", () => {
  it("sleeps once, fans out once and publishes each piece once across its own replays", async ({ expect }) => {
    const taskId = await startTask(server.url, "concurrent", { sleepSeconds: 6 });
    await expectOnce(expect, taskId);
  });

  it("does the same across two SIGKILLs of wrangler dev", async ({ expect }) => {
    const taskId = await startTask(server.url, "concurrent", { sleepSeconds: 6 });
    // First kill: in the first sleep, after x and y. Second: once an item's piece is in.
    for (const count of [2, 3]) {
      await vi
        .waitFor(async () => expect((await pieces(taskId)).length).toBeGreaterThanOrEqual(count), until(300))
        .catch(withServerLogs);
      await server.kill();
      await server.restart();
    }
    await expectOnce(expect, taskId);
  });
});
