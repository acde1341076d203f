import { describe, it } from "vitest";
import { ANNOUNCED_TTL_MS, AnnouncedTasks, listsBefore, type IndexRow } from "../../src/principals/announced-tasks";
import type { TaskView } from "../../src/core";

const NOW = 1_000_000;

function row(n: number, createdAt: number, status: TaskView["status"] = "working"): IndexRow {
  const taskId = n.toString(16).padStart(32, "0");
  const task: TaskView = {
    taskId,
    status,
    createdAt: new Date(createdAt).toISOString(),
    lastUpdatedAt: new Date(createdAt).toISOString(),
    ttl: 60_000,
    pollInterval: 1000,
  };
  return { taskId, createdAt, tool: "batch_process", task };
}

const ids = (rows: IndexRow[]) => rows.map((r) => Number.parseInt(r.taskId, 16));

describe("AnnouncedTasks", () => {
  it("merges an announced task into its place among the stored rows, newest first", ({ expect }) => {
    const announced = new AnnouncedTasks();
    announced.add(row(9, 150, "completed"), NOW);
    const merged = announced.merge([row(1, 200), row(2, 100), row(3, 50)], undefined, NOW);
    expect(ids(merged)).toEqual([1, 9, 2, 3]);
    expect(merged[1]?.task.status).toBe("completed");
  });

  it("replaces the stored row of a task it announced (its newer status), without listing it twice", ({ expect }) => {
    const announced = new AnnouncedTasks();
    announced.add(row(2, 100, "completed"), NOW);
    const merged = announced.merge([row(1, 200), row(2, 100, "working")], undefined, NOW);
    expect(ids(merged)).toEqual([1, 2]);
    expect(merged[1]?.task.status).toBe("completed");
  });

  it("lists an announcement only on pages after its position", ({ expect }) => {
    const announced = new AnnouncedTasks();
    announced.add(row(9, 150), NOW);
    expect(ids(announced.merge([row(3, 50)], { createdAt: 100, taskId: row(2, 100).taskId }, NOW))).toEqual([3]);
    expect(ids(announced.merge([row(2, 100)], { createdAt: 200, taskId: row(1, 200).taskId }, NOW))).toEqual([9, 2]);
  });

  it("forgets an announcement once the task's report stored it, and one whose report never came", ({ expect }) => {
    const announced = new AnnouncedTasks();
    announced.add(row(8, 150), NOW);
    announced.add(row(9, 160), NOW);
    announced.remove(row(8, 150).taskId);
    expect(ids(announced.merge([], undefined, NOW))).toEqual([9]);
    expect(ids(announced.merge([], undefined, NOW + ANNOUNCED_TTL_MS))).toEqual([]);
  });

  it("orders ties in creation time by task id, as the stored pages do", ({ expect }) => {
    expect(listsBefore({ createdAt: 5, taskId: "b" }, { createdAt: 5, taskId: "a" })).toBe(true);
    expect(listsBefore({ createdAt: 4, taskId: "z" }, { createdAt: 5, taskId: "a" })).toBe(false);
  });
});
