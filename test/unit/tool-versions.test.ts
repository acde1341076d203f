// Code that changes under running tasks (issue 50, point 4): job.version across a deploy, and the
// log a run writes once when it asks for durable operations its task never recorded while recorded
// ones go unused. Each "deploy" is a different tool run over the same tables, as a replay would be.
import { describe, it } from "vitest";
import type { JobHost, JournalName } from "../../src/core";
import { decideVersions, type VersionRow } from "../../src/core/model/job-versions";
import type { JobContext, LogLevel } from "../../src/jobs/context";
import { runTool, type RunnableTool } from "../../src/jobs/runner";
import { memoryHost, MemoryTables } from "./memory-host";

/** The tables of one task across runs, with the journal and version rows the TaskObject keeps. */
class VersionedTask extends MemoryTables {
  readonly versions: VersionRow[] = [];
  readonly logs: { level: LogLevel; message: string }[] = [];
  readonly publishes = new Set<string>();
  runs = 0;

  host(): JobHost {
    this.runs += 1;
    const attempt = this.runs;
    return memoryHost(this, {
      attempt,
      log: (level, message) => void this.logs.push({ level, message }),
      publish: (key) => {
        if (this.publishes.has(key)) return { kind: "duplicate" };
        this.publishes.add(key);
        return { kind: "published", pieces: [] };
      },
      recordVersion: (version) => {
        const journalEmpty = () => this.steps.size === 0 && this.answers.size === 0;
        const { versions, write } = decideVersions(this.versions, version, attempt, journalEmpty);
        if (write) this.versions.push(write);
        return versions;
      },
      journal: (): JournalName[] => [
        ...[...this.steps.keys()].map((key) => ({ kind: "step" as const, key })),
        ...[...this.answers.keys()].map((key) => ({ kind: "answer" as const, key })),
      ],
    });
  }

  warnings(): string[] {
    return this.logs.filter((log) => log.level === "warning").map((log) => log.message);
  }
}

const tool = (run: (job: JobContext) => Promise<string>, version?: number): RunnableTool => ({
  run: (_input, job) => run(job),
  ...(version !== undefined && { version }),
});

/** Version 1: two steps, then a question (the run ends there, as a sleep or a callback would end it). */
const v1 = tool(async (job) => {
  await job.step("fetch", () => "rows");
  await job.step("charge", () => "charged");
  const answer = await job.elicit("ship", { message: "Ship it?", requestedSchema: { type: "object", properties: {} } });
  return `done ${answer.action}`;
});

/** The same tool as deployed later: "charge" renamed, without a version to branch on. */
const renamed = tool(async (job) => {
  await job.step("fetch", () => "rows");
  await job.step("charge with tax", () => "charged with tax");
  const answer = await job.elicit("ship", { message: "Ship it?", requestedSchema: { type: "object", properties: {} } });
  return `done ${answer.action}`;
});

describe("job.version", () => {
  it("is the version the task started on, in every later run under newer code", async ({ expect }) => {
    const task = new VersionedTask();
    const seen: number[] = [];
    const versioned = (version: number) =>
      tool(async (job) => {
        seen.push(job.version);
        if (job.version < 2) await job.step("charge", () => "old");
        else await job.step("charge with tax", () => "new");
        await job.sleep(60);
        return "done";
      }, version);
    expect((await runTool(versioned(1), {}, task.host())).kind).toBe("yielded");
    for (const key of task.sleeps.keys()) task.sleeps.set(key, Date.now() - 1);
    expect(await runTool(versioned(2), {}, task.host())).toMatchObject({ kind: "completed" });
    expect(seen).toEqual([1, 1]);
    expect([...task.steps.keys()]).toEqual(["charge"]);
    // Branching on job.version replays exactly what was recorded: nothing to warn about.
    expect(task.warnings()).toEqual([]);
    expect(task.logs.map((log) => log.message)).toContainEqual(
      expect.stringContaining("This run is on version 2 of the tool; the runs before it were on version 1"),
    );

    const fresh = new VersionedTask();
    await runTool(versioned(2), {}, fresh.host());
    expect(seen.at(-1)).toBe(2);
    expect([...fresh.steps.keys()]).toEqual(["charge with tax"]);
  });

  it("is 1 for a task whose earlier runs recorded no version (a release before versions)", async ({ expect }) => {
    const task = new VersionedTask();
    task.steps.set("charge", "old"); // what an earlier release's run left
    task.runs = 2;
    let version = 0;
    await runTool(
      tool(async (job) => {
        version = job.version;
        return "done";
      }, 3),
      {},
      task.host(),
    );
    expect(version).toBe(1);
    expect(task.versions).toEqual([{ version: 3, run: 3 }]);
  });

  it("is the tool's version when an earlier run left nothing stored", ({ expect }) => {
    expect(decideVersions([], 2, 3, () => true)).toEqual({ versions: { started: 2 }, write: { version: 2, run: 1 } });
    expect(decideVersions([], 1, 5, () => false)).toEqual({ versions: { started: 1 } });
    expect(decideVersions([{ version: 2, run: 1 }], 3, 4, () => false)).toEqual({
      versions: { started: 2, before: 2 },
      write: { version: 3, run: 4 },
    });
  });
});

describe("a replay under changed code", () => {
  it("logs once, in words, that it asked for operations never recorded while recorded ones went unused", async ({
    expect,
  }) => {
    const task = new VersionedTask();
    expect((await runTool(v1, {}, task.host())).kind).toBe("input");
    expect(task.warnings()).toEqual([]);

    // The deploy: the task's next run replays on the renamed code.
    expect((await runTool(renamed, {}, task.host())).kind).toBe("input");
    const [warning, ...others] = task.warnings();
    expect(others).toEqual([]);
    expect(warning).toContain('this run asked for step "charge with tax", never recorded');
    expect(warning).toContain('while step "charge", recorded by an earlier run, went unused');
    expect(warning).toContain("job.version");
    expect(warning).not.toMatch(/\n\s+at /); // words, no stack

    task.answers.set("ship", { action: "accept", content: {} });
    expect(await runTool(renamed, {}, task.host())).toMatchObject({ kind: "completed" });
    expect(task.warnings()).toHaveLength(1);
  });

  it("says nothing for a replay of the same code, steps and publishes inside steps, or branches at once", async ({
    expect,
  }) => {
    const task = new VersionedTask();
    const program = tool(async (job) => {
      await job.step("outer", async () => {
        await job.step("inner", () => 1);
        await job.publish("inner done");
        return 2;
      });
      // One branch waits on a new sleep while the other replays what it recorded.
      await Promise.all([
        job.sleep(60 * job.attempt),
        (async () => {
          await job.step("left 1", () => 1);
          await job.step("left 2", () => 2);
        })(),
      ]);
      return "done";
    });
    for (let run = 0; run < 3; run++) expect((await runTool(program, {}, task.host())).kind).toBe("yielded");
    expect([...task.steps.keys()].sort()).toEqual(["inner", "left 1", "left 2", "outer"]);
    expect(task.warnings()).toEqual([]);
  });
});
