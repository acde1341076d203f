// A TaskObject written by release 0.1 is read and finished by this release (docs/api.md, "Storage
// across versions"). test/fixtures/storage-0.1.json holds what 0.1's own code stored (commit
// f8921db, a pool test that drove each task there and dumped every table); each test loads one
// into a fresh object, and the object migrates it at its first read, once.
import { describe, it, vi } from "vitest";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import * as z from "zod";
import fixture from "../fixtures/storage-0.1.json";
import type { TaskRecord } from "../../src/core";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import type { TaskObject } from "../../src/index";
import { newTaskId } from "../../src/core/model/ids";
import { freshTask, taskStub, type TaskStub } from "./support";
import { until } from "../until";

const CaseSchema = z.object({
  taskId: z.string(),
  principal: z.string(),
  schema: z.array(z.string()),
  tables: z.record(z.string(), z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.unknown())) })),
});
const cases = z.record(z.string(), CaseSchema).parse(fixture.cases);

const tableNames = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\'",
    )
    .toArray()
    .map((row) => row.name)
    .sort();

/**
 * Writes case `name` into its object exactly as 0.1 left it (its record's expiry moved to an hour
 * from now, so the fixture does not age), then evicts the instance: the next request reads it cold.
 */
async function load(name: string): Promise<{ stub: TaskStub; taskId: string }> {
  const dump = cases[name];
  if (!dump) throw new Error(`no case ${name} in the fixture`);
  // A name of its own per test: two cases are one task at two moments, and the file shares its storage.
  const principal = `p-${crypto.randomUUID()}`;
  const taskId = newTaskId();
  const stub = taskStub(principal, taskId);
  await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => {
    for (const statement of dump.schema) state.storage.sql.exec(statement);
    for (const [table, { columns, rows }] of Object.entries(dump.tables)) {
      for (const row of rows) {
        const values = row.map((value, i) => {
          if (table !== "task" || columns[i] !== "record" || typeof value !== "string") return value;
          const record = JSON.parse(value) as TaskRecord;
          return JSON.stringify({ ...record, taskId, principal, expiresAt: Date.now() + 3_600_000 });
        });
        state.storage.sql.exec(
          `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
          ...values,
        );
      }
    }
  });
  await evictDurableObject(stub);
  return { stub, taskId };
}

/** Every sleep and the record's wake-up made due, then the alarm run, until the task ends. */
async function runToEnd(stub: TaskStub): Promise<TaskRecord> {
  await vi.waitFor(async () => {
    await runInDurableObject(stub, (instance: TaskObject, state: DurableObjectState) => {
      const storage = TaskObjectRuntime.partsOf(instance).storage;
      const record = storage.load();
      if (record?.run.wakeAt !== undefined) storage.save({ ...record, run: { ...record.run, wakeAt: Date.now() - 1 } });
      if (tableNames(state).includes("sleeps"))
        state.storage.sql.exec("UPDATE sleeps SET value = ?", String(Date.now() - 1));
      return state.storage.setAlarm(Date.now());
    });
    await runDurableObjectAlarm(stub);
    const status = (await stub.get())?.task.status;
    if (status !== "completed" && status !== "failed") throw new Error(`still ${status}`);
  }, until(200));
  const record = await runInDurableObject(stub, (instance: TaskObject) =>
    TaskObjectRuntime.partsOf(instance).storage.load(),
  );
  if (!record) throw new Error("the task is gone");
  return record;
}

const texts = async (stub: TaskStub) =>
  ((await stub.get({ piecesAfter: 0 }))?.pieces ?? []).map((p) => (p.content.type === "text" ? p.content.text : ""));

const stepEvents = async (stub: TaskStub) =>
  (await stub.events(0)).flatMap((event) => (event.type === "step" ? [event.data.name] : []));

describe("a TaskObject that release 0.1 wrote", () => {
  it("is moved to a table per concept at its first read, and keeps its record, events and pieces", async ({
    expect,
  }) => {
    const { stub } = await load("c_completed_with_pieces");
    expect((await stub.get())?.task.status).toBe("completed");
    const tables = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => tableNames(state));
    expect(tables).toEqual(["answers", "events", "notes", "pieces", "publishes", "sleeps", "step_results", "task"]);
    expect(await texts(stub)).toEqual(["Item 1 of 3: 1.", "Item 2 of 3: 4.", "Item 3 of 3: 9."]);
    expect(((await stub.get({ piecesAfter: 2 }))?.pieces ?? []).map((p) => p.n)).toEqual([3]);
    expect(await stepEvents(stub)).toEqual(["item-1", "item-2", "item-3"]);
  });

  it("is migrated once: a second cold read finds it done and changes nothing", async ({ expect }) => {
    const { stub } = await load("b3_deploy_completed");
    const first = await stub.get({ piecesAfter: 0 });
    const dumpOf = () =>
      runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
        tableNames(state).map((table) => [table, state.storage.sql.exec(`SELECT * FROM ${table}`).toArray()]),
      );
    const migrated = await dumpOf();
    await evictDurableObject(stub);
    expect(await stub.get({ piecesAfter: 0 })).toEqual(first);
    expect(await dumpOf()).toEqual(migrated);
    const versions = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
      state.storage.sql.exec("SELECT schema, first_schema FROM task").one(),
    );
    expect(versions).toEqual({ schema: 2, first_schema: 1 });
  });

  // 0.1's prepare() made its three tables and wrote no row (storage.ensureSchema at f8921db): the
  // same three statements as the fixture's dumps, which SQLite stores without IF NOT EXISTS. 0.2.0
  // migrated such an object to a task table whose first_schema defaulted to 1.
  const prepared01 = cases.a_sleeping_with_pieces?.schema ?? [];
  const migratedEmptyBy020 = [
    "CREATE TABLE task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL, schema INTEGER NOT NULL DEFAULT 2, first_schema INTEGER NOT NULL DEFAULT 1)",
    "CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL)",
  ];
  it.for([
    ["an id 0.1 prepared (its pool's empty tables)", prepared01],
    ["such an id 0.2.0 migrated while it held no task", migratedEmptyBy020],
  ] as const)("takes a task created on %s as a task of this schema", async ([, statements], { expect }) => {
    const { principal, taskId, stub, input } = freshTask();
    await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => {
      for (const statement of statements) state.storage.sql.exec(statement);
    });
    await evictDurableObject(stub);
    expect((await stub.create(input)).created).toBe(true);
    await evictDurableObject(taskStub(principal, taskId)); // read cold: the mark as stored
    const marks = await runInDurableObject(stub, (instance: TaskObject, state: DurableObjectState) => ({
      row: state.storage.sql.exec("SELECT schema, first_schema FROM task").one(),
      legacyNames: TaskObjectRuntime.partsOf(instance).storage.recordedByRelease01,
      tables: tableNames(state),
    }));
    expect(marks).toEqual({
      row: { schema: 2, first_schema: 2 },
      legacyNames: false,
      tables: expect.not.arrayContaining(["steps"]),
    });
  });

  it("resumes a job sleeping inside its second step: 0.1's sleep and publish names found, nothing repeated", async ({
    expect,
  }) => {
    const { stub } = await load("a_sleeping_with_pieces");
    const record = await runToEnd(stub);
    expect(record.status).toBe("completed");
    expect(await texts(stub)).toEqual(["Item 1 of 3: 1.", "Item 2 of 3: 4.", "Item 3 of 3: 9."]);
    expect(await stepEvents(stub)).toEqual(["item-1", "item-2", "item-3"]);
    // 0.1's two sleeps (items 1 and 2) and one new one (item 3): item 2's was not slept again.
    const sleeps = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
      state.storage.sql.exec<{ key: string }>("SELECT key FROM sleeps ORDER BY at").toArray(),
    );
    expect(sleeps.map((s) => s.key).slice(0, 2)).toEqual(["in item-1#1", "in item-2#1"]);
    expect(sleeps).toHaveLength(3);
  });

  it("takes the answer to a question 0.1 asked, and finishes the deploy", async ({ expect }) => {
    const { stub } = await load("b_deploy_waiting_input");
    expect((await stub.get())?.task.status).toBe("input_required");
    expect(await stub.answer({ confirm: { action: "accept", content: { confirm: true } } })).toMatchObject({
      ok: true,
    });
    const record = await runToEnd(stub);
    expect(record.status).toBe("completed");
    const result = (await stub.get())?.outcome;
    expect(JSON.stringify(result)).toMatch(/Deployed/);
    expect((await stepEvents(stub)).filter((name) => name === "plan")).toHaveLength(1);
  });

  it("finishes a job 0.1 left answered and sleeping, with the answer it had stored", async ({ expect }) => {
    const { stub } = await load("b2_deploy_answered");
    expect((await runToEnd(stub)).status).toBe("completed");
    expect(JSON.stringify((await stub.get())?.outcome)).toMatch(/Deployed/);
  });

  it("wakes a job waiting on 0.1's fan-out with its results, and fans out nothing new", async ({ expect }) => {
    const { stub } = await load("d_fan_out_waiting");
    const key = "fanout:start#1";
    for (const index of [0, 1, 2]) {
      expect(await stub.claimSteps(key, [index])).toMatchObject({ kind: "claimed" });
      expect(await stub.stepDone(key, index, String((index + 1) ** 2))).toBe("stored");
    }
    const record = await runToEnd(stub);
    expect(record.status).toBe("completed");
    const fanOuts = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
      state.storage.sql.exec<{ key: string }>("SELECT key FROM fan_outs").toArray(),
    );
    expect(fanOuts.map((f) => f.key)).toEqual([key]);
    expect(JSON.stringify((await stub.get())?.outcome)).toMatch(/Processed 3 items/);
  });

  it("keeps a Workflow's notes and answers where its engine reads them", async ({ expect }) => {
    const { stub } = await load("e2_workflow_completed");
    const notes = await runInDurableObject(stub, (instance: TaskObject) => {
      const storage = TaskObjectRuntime.partsOf(instance).storage;
      return {
        instance: storage.memos.get("notes", "workflow:instance") !== undefined,
        sent: storage.memos.get("notes", "workflow:sent:1")?.value,
        question: storage.memos.get("notes", "workflow:question:1") !== undefined,
        answer: storage.memos.get("answers", "publish")?.value,
        step: storage.memos.get("steps", "page 1") !== undefined,
      };
    });
    expect(notes).toMatchObject({ instance: true, sent: true, question: true, step: true });
    expect(notes.answer).toMatchObject({ action: "accept" });
    expect(await texts(stub)).toHaveLength(2);
  });
});
