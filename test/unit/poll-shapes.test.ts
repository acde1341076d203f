// The polls a client that polls at the told interval makes for the task shapes of docs/scale.md:
// before (a fixed 1-s interval), after (the interval follows the task), and after as Claude Code
// 2.1.328 takes it (it keeps a told interval within 250 ms-30 s). The figures of docs/polling.md,
// "Requests per task-hour", on a simulated clock with the real state machine.
import { describe, it } from "vitest";
import { countdown, follow, question, silent } from "./poll-follower";

const DAY = 86_400_000;

describe("polls per task: fixed 1-s interval → interval that follows the task (Claude Code's clamp)", () => {
  it.for([
    ["2-s countdown", 3, 5, 5, () => countdown(2)],
    ["20-s countdown", 21, 23, 23, () => countdown(20)],
    ["90-s countdown", 91, 12, 12, () => countdown(90)],
    ["10-min job, 600 progress events", 601, 20, 29, () => countdown(600)],
    ["1-h job, a progress event a second", 3601, 70, 129, () => countdown(3600)],
    ["10-min job without progress", 601, 39, 39, () => silent(600_000)],
    ["1-h job without progress", 3601, 139, 139, () => silent(3_600_000)],
    ["2-day wait for an answer, then three 1-s steps", 172_804, 592, 5771, () => question(2 * DAY)],
  ] as const)("%s: %i → %i (%i)", ([, before, after, claudeCode, shape], { expect }) => {
    expect(follow(shape(), { fixedMs: 1000 }).polls).toBe(before);
    expect(follow(shape()).polls).toBe(after);
    expect(follow(shape(), { maxMs: 30_000 }).polls).toBe(claudeCode);
  });
});
