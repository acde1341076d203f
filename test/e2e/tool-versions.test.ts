// A deploy under sleeping tasks (issue 50, point 4): test/fixtures/versions' Worker starts tasks of
// two tools, each asleep after its first step; wrangler dev is killed and started again on the same
// state with the next version of the code. `ship` (version 2, branching on job.version) finishes its
// old tasks on the old path and new ones on the new; `label` (renamed a step, no version) logs the
// mismatch once, in words, and shows it in its task document.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it, vi, type ExpectStatic } from "vitest";
import { eventLog, getTask, startTask, type LoggedEvent } from "./support/tasks";
import { failWithLogs, startDevServer, type DevServer } from "./support/wrangler-dev";
import { until } from "../until";

// A run yields at a sleep past its 1 s slice: each task sleeps durably (its alarm set) across the deploy.
const VARS = { RUN_SLICE_MS: "1000" };
const SLEEP_SECONDS = 20;

const text = (doc: { result?: unknown }): string =>
  JSON.stringify((doc.result as { content?: { text?: string }[] } | undefined)?.content?.[0]?.text ?? "");
const warnings = (log: LoggedEvent[]): string[] =>
  log.filter((e) => e.event === "log" && e.data["level"] === "warning").map((e) => String(e.data["message"]));
const steps = (log: LoggedEvent[]): string[] =>
  log.filter((e) => e.event === "step").map((e) => String(e.data["name"]));

async function sleeping(expect: ExpectStatic, server: DevServer, taskId: string): Promise<void> {
  await vi
    .waitFor(async () => {
      const doc = await getTask(server.url, taskId);
      expect(doc.status).toBe("working");
      expect(String(doc.statusMessage)).toMatch(/waiting for the carrier/);
    }, until(200))
    .catch((error: unknown) => failWithLogs(server, error));
}

describe("a deploy of new code while tasks sleep", () => {
  it("finishes old tasks on their version's path and logs a changed journal once", async ({ expect }) => {
    const stateDir = mkdtempSync(join(tmpdir(), "mcp-task-worker-versions-"));
    let server = await startDevServer({ config: "test/fixtures/versions/wrangler.v1.toml", stateDir, vars: VARS });
    try {
      const shipped = await startTask(server.url, "ship", { sleepSeconds: SLEEP_SECONDS });
      const labelled = await startTask(server.url, "label", { sleepSeconds: SLEEP_SECONDS });
      await sleeping(expect, server, shipped);
      await sleeping(expect, server, labelled);

      // The deploy: the old code stops at once (SIGKILL), the new starts on the same state.
      await server.kill();
      server = await startDevServer({ config: "test/fixtures/versions/wrangler.v2.toml", stateDir, vars: VARS });
      const fresh = await startTask(server.url, "ship", { sleepSeconds: 0 });

      const done = async (taskId: string) => {
        await vi
          .waitFor(async () => expect((await getTask(server.url, taskId)).status).toBe("completed"), until(400))
          .catch((error: unknown) => failWithLogs(server, error));
        return { doc: await getTask(server.url, taskId), log: await eventLog(server.url, taskId) };
      };

      const old = await done(shipped);
      expect(text(old.doc)).toContain("Sent parcel v1 on the version 1 path (job.version 1).");
      expect(steps(old.log)).toEqual(["pack", "send"]);
      expect(warnings(old.log)).toEqual([]);
      expect(old.log.map((e) => String(e.data["message"] ?? ""))).toContainEqual(
        expect.stringContaining("This run is on version 2 of the tool; the runs before it were on version 1"),
      );
      expect(old.doc.journal).toEqual({ versions: [{ version: 2, run: 2 }] });

      const now = await done(fresh);
      expect(text(now.doc)).toContain("Sent parcel v2 on the version 2 path (job.version 2).");
      expect(steps(now.log)).toEqual(["pack and label", "send"]);
      expect(now.doc.journal).toEqual({ versions: [{ version: 2, run: 1 }] });

      const renamed = await done(labelled);
      expect(text(renamed.doc)).toContain("Sent with label v2.");
      const [warning, ...more] = warnings(renamed.log);
      expect(more).toEqual([]);
      expect(warning).toContain('this run asked for step "print label"');
      expect(warning).toContain('while step "print", recorded by an earlier run, went unused');
      expect(renamed.doc.journal).toEqual({ mismatch: warning });
    } finally {
      await server.stop();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
