// The model's part of a result (docs/model-facing.md): the sentences about an unfinished task, with an
// injected clock, and the outputSchema a task-capable tool declares (its own fields, or the task link).
import { describe, it } from "vitest";
import * as z from "zod";
import { Validator } from "@cfworker/json-schema";
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import type { TaskSnapshot } from "../../src/core";
import { taskSnapshot } from "../../src/core/client/task-rpc";
import { answerInputs, waitForInput } from "../../src/core/model/input-wait";
import { beginRun, newTask, recordProgress } from "../../src/core/model/machine";
import { estimatedMsLeft, pollIntervalMs } from "../../src/core/model/poll-interval";
import { longCallLine, toolDescription } from "../../src/protocol/instructions";
import { taskReport, toolOutputSchema } from "../../src/protocol/model-facing";
import { duration, secondsLeft, statusSentences, stillRunningSentences } from "../../src/protocol/task-sentences";

const TASK_ID = "b".repeat(32);
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);

function snapshot(
  overrides: Partial<TaskSnapshot> = {},
  status: TaskSnapshot["task"]["status"] = "working",
): TaskSnapshot {
  return {
    task: {
      taskId: TASK_ID,
      status,
      createdAt: new Date(T0).toISOString(),
      lastUpdatedAt: new Date(T0).toISOString(),
      ttl: 3_600_000,
      pollInterval: 1000,
    },
    tool: "countdown",
    meta: {},
    lastSeq: 1,
    ...overrides,
  };
}

describe("secondsLeft", () => {
  it("reads the task's own estimate of its end", ({ expect }) => {
    expect(
      secondsLeft(snapshot({ progress: { progress: 10, total: 90 }, estimatedEndAt: T0 + 90_000 }), T0 + 10_000),
    ).toBe(80);
    expect(
      secondsLeft(snapshot({ progress: { progress: 1, total: 3600 }, estimatedEndAt: T0 + 3_600_000 }), T0 + 1000),
    ).toBe(3599);
  });

  it("falls back to the poll interval without an estimate or past it, and never says less than a second", ({
    expect,
  }) => {
    expect(secondsLeft(snapshot(), T0 + 5000)).toBe(1);
    expect(
      secondsLeft(snapshot({ progress: { progress: 90, total: 90 }, estimatedEndAt: T0 + 90_000 }), T0 + 90_000),
    ).toBe(1);
    const late = snapshot({ progress: { progress: 5, total: 90 }, estimatedEndAt: T0 + 60_000 });
    expect(secondsLeft({ ...late, task: { ...late.task, pollInterval: 7000 } }, T0 + 61_000)).toBe(7);
  });

  it("counts only time at work: 18 days waiting for a person are not work, and the poll interval agrees", ({
    expect,
  }) => {
    const DAY = 86_400_000;
    const form = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
    const created = newTask(
      {
        taskId: TASK_ID,
        principal: "p",
        tool: "deploy",
        args: {},
        requestedTtlMs: 30 * DAY,
        defaultTtlMs: DAY,
        maxTtlMs: 30 * DAY,
        pollIntervalMs: 1000,
        dispatchGraceMs: 0,
      },
      T0,
    ).record;
    const asked = waitForInput(
      beginRun(created, "l1", 30_000, T0 + 100).record,
      "l1",
      [{ key: "ok", message: "Go?", requestedSchema: form }],
      T0 + 1000,
    ).record;
    const answered = answerInputs(asked, { ok: { action: "accept", content: { ok: true } } }, T0 + 18 * DAY);
    if (!answered.ok) throw new Error("expected the answer to be taken");
    const back = beginRun(answered.transition.record, "l2", 30_000, T0 + 18 * DAY).record;
    // One step of three done in the first second back at work.
    const working = recordProgress(back, { progress: 1, total: 3 }, T0 + 18 * DAY + 1000).record;
    const now = T0 + 18 * DAY + 1000;
    const seen = taskSnapshot(working, 5, now);
    expect(seen.estimatedEndAt).toBe(T0 + 18 * DAY + 3000);
    expect(secondsLeft(seen, now)).toBe(2);
    expect(statusSentences(seen, now).summary).toBe(
      `Task ${TASK_ID} ("deploy") is still running (1 of 3, about 2 s left).`,
    );
    expect(estimatedMsLeft(working, now)).toBe(2000);
    expect(pollIntervalMs(working, now)).toBe(1000);
  });

  it("reads long waits in minutes or hours", ({ expect }) => {
    expect([duration(80), duration(600), duration(3 * 3600)]).toEqual(["80 s", "10 min", "3 h"]);
  });
});

describe("the sentences", () => {
  it("the fallback says it is still running, is not the result, and when to call task_result", ({ expect }) => {
    const said = stillRunningSentences(
      snapshot({ progress: { progress: 12, total: 90, message: "78 s left" }, estimatedEndAt: T0 + 90_000 }),
      "https://x.example",
      T0 + 12_000,
    );
    expect(said).toEqual({
      summary: `Still running: "countdown" continues in the background as task ${TASK_ID} (12 of 90, about 78 s left). This is not its result.`,
      next: `Call task_result with taskId "${TASK_ID}" in about 78 s to get the result; task_status shows progress meanwhile, task_cancel stops it. Calling "countdown" again would start a second run.`,
    });
  });

  it("a waiting task names its question and the ways to answer it", ({ expect }) => {
    const waiting = snapshot(
      {
        tool: "deploy",
        inputRequests: {
          confirm: {
            message: "Deploy api 1 to production?",
            requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
          },
        },
      },
      "input_required",
    );
    const said = stillRunningSentences(waiting, "https://x.example");
    expect(said.summary).toBe(
      `Waiting for a person: "deploy" (task ${TASK_ID}) asks "Deploy api 1 to production?". This is not its result.`,
    );
    expect(said.next).toContain("task_input");
    expect(said.next).toContain(`POST https://x.example/tasks/${TASK_ID}/input`);
    expect(said.next).toContain("task console at https://x.example/");
  });

  it("task_status says how a task ended", ({ expect }) => {
    expect(statusSentences(snapshot({}, "cancelled")).summary).toBe(`Task ${TASK_ID} ("countdown") was cancelled.`);
    expect(statusSentences(snapshot({}, "completed"))).toEqual({
      summary: `Task ${TASK_ID} ("countdown") has completed.`,
      next: `Call task_result with taskId "${TASK_ID}" to get its result.`,
    });
  });
});

describe("toolOutputSchema", () => {
  const own = z.object({ deployed: z.boolean(), service: z.string() });
  // Read as the SDK reads a listing, then checked as the SDK's cfworker validator checks a result.
  const listed = ToolSchema.parse({
    name: "deploy",
    inputSchema: { type: "object" },
    outputSchema: toolOutputSchema(own, true),
  }).outputSchema;
  const schema = new Validator(listed ?? false);
  const valid = (value: unknown): boolean => schema.validate(value).valid;

  it("takes the tool's own result, or the task link, and nothing that is neither", ({ expect }) => {
    expect(valid({ summary: "Deployed.", deployed: true, service: "api" })).toBe(true);
    expect(valid(taskReport(snapshot(), stillRunningSentences(snapshot(), "https://x.example", T0)))).toBe(true);
    expect(valid({ summary: "Deployed." })).toBe(false);
    expect(valid({ deployed: true, service: "api" })).toBe(false);
  });

  it("a quick tool's schema requires its own fields with the summary", ({ expect }) => {
    expect(toolOutputSchema(own, false)).toMatchObject({
      type: "object",
      required: ["summary", "deployed", "service"],
    });
    expect(toolOutputSchema(undefined, true)).toEqual({
      type: "object",
      properties: expect.objectContaining({ summary: expect.any(Object), next: expect.any(Object) }),
      required: ["summary"],
    });
  });
});

describe("tool descriptions (for models whose client drops the instructions)", () => {
  const tool = (taskSupport: "forbidden" | "optional" | "required") => ({ description: "Does my thing.", taskSupport });

  it("a task-capable tool of yours gets the line on long calls without writing it", ({ expect }) => {
    expect(toolDescription(tool("optional"))).toBe(`Does my thing. ${longCallLine("optional")}`);
    expect(longCallLine("optional")).toContain('answers "Still running" with a taskId');
    expect(longCallLine("optional")).toContain("call task_result with that taskId");
    expect(toolDescription(tool("required"))).toBe(`Does my thing. ${longCallLine("required")}`);
    expect(longCallLine("required")).toContain("needs a client that supports MCP tasks");
  });

  it("a quick tool's stays its own, and the line has no wire words", ({ expect }) => {
    expect(toolDescription(tool("forbidden"))).toBe("Does my thing.");
    for (const line of [longCallLine("optional"), longCallLine("required")]) {
      expect(line).not.toMatch(/tasks\/|tools\/call|_meta|resultType|input_required|io\.modelcontextprotocol/);
    }
  });
});
