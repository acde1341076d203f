// Durable names under concurrency (src/jobs/durable-names.ts): a job's steps (with retries of their
// own or not), sleeps, publishes and fan-outs written the way people write them (Promise.all, items.map(async ...)), replayed after a
// crash, a sleep or an answer, happen once. A fake task keeps what the TaskObject would keep.
import { afterEach, beforeEach, describe, it, vi, type ExpectStatic } from "vitest";
import * as z from "zod";
import type { JobHost, PartialBlock } from "../../src/core";
import { memoryHost, MemoryTables } from "./memory-host";
import type { FanOutRequest, FanOutStatus } from "../../src/core/fan-out/ledger";
import type { FanOutPort } from "../../src/core/ports";
import { defineStep } from "../../src/jobs/steps";
import { createJobContext } from "../../src/jobs/job-context";
import type { JobContext } from "../../src/jobs/context";
import type { YieldState } from "../../src/jobs/yield-state";

class Crash extends Error {}

/** A task's durable state across runs, with a count of every effect. */
class FakeTask extends MemoryTables {
  readonly markers = new Set<string>();
  readonly pieces: string[] = [];
  readonly fanOuts = new Map<string, { request: FanOutRequest; done: boolean }>();
  fanOutStarts = 0;
  stepSaves = new Map<string, number>();
  sleepSaves = 0;
  /** Callbacks opened (token-less here: the port is the task's) and the bodies POSTed to them, each once. */
  readonly opened = new Map<string, number>();
  readonly posted = new Map<string, unknown>();
  /** What each successful attempt of a step with options did outside, with what it was told. */
  readonly effects: { step: string; attempt: number; key: string; interrupted: boolean }[] = [];
  private run = 0;
  private alive = 0;
  /** Host calls left before this run crashes (undefined: it does not). */
  private fuse: number | undefined;
  legacyNames = false;

  host(crashAfter?: number): JobHost {
    this.run += 1;
    this.alive = this.run;
    this.fuse = crashAfter;
    const run = this.run;
    const live = (): void => {
      if (this.alive !== run) throw new Crash("this run is over");
      if (this.fuse !== undefined && this.fuse-- <= 0) {
        this.alive = 0;
        throw new Crash("crashed");
      }
    };
    const fanOut: FanOutPort = {
      status: (key): FanOutStatus | undefined => {
        live();
        const entry = this.fanOuts.get(key);
        if (!entry) return undefined;
        if (!entry.done) return { state: "pending", finished: 0, total: entry.request.inputs.length };
        return {
          state: "finished",
          items: entry.request.inputs.map((json, index) => ({ index, state: "done", value: json, attempts: 1 })),
        };
      },
      start: (request: FanOutRequest) => {
        live();
        this.fanOutStarts += 1;
        this.fanOuts.set(request.key, { request, done: false });
      },
    };
    const tables = memoryHost(this);
    return {
      ...tables,
      attempt: run,
      sliceDeadline: Date.now() + 600_000,
      legacyNames: this.legacyNames,
      progress: () => live(),
      loadStep: (name) => {
        live();
        return tables.loadStep(name);
      },
      saveStep: (name, value) => {
        live();
        if (this.steps.has(name)) return;
        this.steps.set(name, value);
        this.stepSaves.set(name, (this.stepSaves.get(name) ?? 0) + 1);
      },
      loadSleep: (key) => {
        live();
        return tables.loadSleep(key);
      },
      saveSleep: (key, wakeAt) => {
        live();
        if (this.sleeps.has(key)) return;
        this.sleeps.set(key, wakeAt);
        this.sleepSaves += 1;
      },
      loadAnswer: (key) => {
        live();
        return tables.loadAnswer(key);
      },
      loadAttempt: (key) => {
        live();
        return tables.loadAttempt(key);
      },
      saveAttempt: (key, value) => {
        live();
        tables.saveAttempt(key, value);
      },
      publish: (key, blocks: readonly PartialBlock[], legacyKey) => {
        live();
        if (this.markers.has(key) || (legacyKey !== undefined && this.markers.has(legacyKey)))
          return { kind: "duplicate" };
        this.markers.add(key);
        for (const block of blocks) this.pieces.push(block.type === "text" ? block.text : block.uri);
        return { kind: "published", pieces: [] };
      },
      fanOut,
      callbacks: {
        open: (name, expiresAt) => {
          live();
          const fresh = !this.opened.has(name);
          if (fresh) this.opened.set(name, expiresAt);
          const opened = { expiresAt: this.opened.get(name) ?? expiresAt, fresh, signed: false };
          return { url: `https://w.example/callbacks/${name}`, ...opened, objectId: "o", token: name };
        },
        received: (name) => {
          live();
          return this.posted.has(name) ? { body: this.posted.get(name) } : undefined;
        },
      },
    };
  }

  /** The outside systems POST to every callback opened so far, once each. */
  postCallbacks(): void {
    for (const name of this.opened.keys()) if (!this.posted.has(name)) this.posted.set(name, `body of ${name}`);
  }

  /** The run ended (the object would stop it): anything its leftover branches try now fails. */
  end(): void {
    this.alive = 0;
  }

  finishFanOuts(): void {
    for (const entry of this.fanOuts.values()) entry.done = true;
  }
}

const echoStep = defineStep({ input: z.number(), run: (n) => n });
const steps = { echoStep };

/** `value` after some macrotask turns: concurrent branches finish in an order of their own. */
const later = async <T>(n: number, value: T): Promise<T> => {
  await turns(n);
  return value;
};

/**
 * Some turns of the microtask queue: branches that wait different numbers of turns finish in an
 * order of their own, unlike their replay, where a stored step returns at once. (Microtasks, not
 * timers: 150 programs cost ~5 s, not ~40 s, in a loaded run.)
 */
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n * 10; i++) await Promise.resolve();
};

interface Outcome {
  runs: number;
  yields: number;
  questions: number;
}

/**
 * Runs `program` to its end as the TaskObject would: after a yield the clock moves past the wake-up,
 * a question is answered, fanned-out items finish, and a crash (`crashes` lists after how many host
 * calls each run crashes) just runs it again.
 */
async function runToEnd(
  task: FakeTask,
  program: (job: JobContext) => Promise<void>,
  crashes: (number | undefined)[] = [],
): Promise<Outcome> {
  const outcome: Outcome = { runs: 0, yields: 0, questions: 0 };
  for (let run = 0; run < 200; run++) {
    outcome.runs += 1;
    const state: YieldState = {};
    const job = createJobContext(task.host(crashes[run]), state, steps);
    try {
      await program(job);
      task.end();
      return outcome;
    } catch {
      task.end();
      if (state.yield) {
        outcome.yields += 1;
        vi.setSystemTime(Math.max(Date.now(), state.yield.wakeAt) + 1);
      }
      for (const question of state.questions ?? []) {
        outcome.questions += 1;
        task.answers.set(question.key, { action: "accept", content: { ok: true } });
      }
      if (state.fanOut) task.finishFanOuts();
    }
    // After a crash too: a body may then arrive before the job waits for it.
    task.postCallbacks();
    // Let the ended run's leftover branches fail before the next run starts.
    await turns(20);
  }
  throw new Error("the program did not finish in 200 runs");
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const slowFast = (job: JobContext) =>
  Promise.all([job.step("a", () => later(6, "a")), job.step("b", () => later(1, "b"))]);

describe("the four programs that replayed twice in release 0.1", () => {
  it("Promise.all of a slow and a fast step, then a 31 s sleep: sleeps once", async ({ expect }) => {
    const task = new FakeTask();
    const outcome = await runToEnd(task, async (job) => {
      await slowFast(job);
      await job.sleep(31);
    });
    expect(outcome.yields).toBe(1);
    expect(task.sleepSaves).toBe(1);
  });

  it("the same, then a fan-out of 3 items: the items are sent once", async ({ expect }) => {
    const task = new FakeTask();
    await runToEnd(task, async (job) => {
      await slowFast(job);
      expect(await job.fanOut(echoStep, [1, 2, 3])).toEqual([1, 2, 3]);
    });
    expect(task.fanOutStarts).toBe(1);
  });

  it("the same, then two publishes replayed by an answer, a 31 s sleep and a crash: pieces x, y", async ({
    expect,
  }) => {
    const task = new FakeTask();
    await runToEnd(
      task,
      async (job) => {
        await slowFast(job);
        await job.publish("x");
        await job.publish("y");
        await job.elicit("go", { message: "Go on?", requestedSchema: { type: "object", properties: {} } });
        await job.sleep(31);
        await job.step("c", () => 1);
      },
      // The third run crashes after replaying a, b, x and y.
      [undefined, undefined, 6],
    );
    expect(task.pieces).toEqual(["x", "y"]);
  });

  it("items.map(async ...) of a step then a publish, 5 items: 5 pieces, each once", async ({ expect }) => {
    const task = new FakeTask();
    await runToEnd(task, async (job) => {
      await Promise.all(
        [1, 2, 3, 4, 5].map(async (i) => {
          // Later items finish first on the first run; a replay returns them in call order.
          const square = await job.step(`item ${i}`, () => later(6 - i, i * i));
          await job.publish(`Item ${i} of 5: ${square}.`);
        }),
      );
      await job.sleep(31);
    });
    expect([...task.pieces].sort()).toEqual([1, 2, 3, 4, 5].map((i) => `Item ${i} of 5: ${i * i}.`));
  });
});

describe("what the rule refuses", () => {
  it("refuses two steps of one name at once, at the call", async ({ expect }) => {
    const job = createJobContext(new FakeTask().host(), {}, steps);
    const both = Promise.all([job.step("same", () => later(2, 1)), job.step("same", () => later(2, 2))]);
    await expect(both).rejects.toMatchObject({ name: "PermanentError", message: expect.stringContaining("same name") });
  });

  it("refuses a publish a step's body left running after the step returned", async ({ expect }) => {
    const job = createJobContext(new FakeTask().host(), {}, steps);
    let late: Promise<void> | undefined;
    await job.step("s", () => {
      late = turns(2).then(() => job.publish("late"));
      return 1;
    });
    await expect(late).rejects.toMatchObject({ message: expect.stringContaining("after that step returned") });
  });
});

describe("tasks recorded by release 0.1", () => {
  it("find the sleep, publish and fan-out names 0.1 stored, and repeat none of them", async ({ expect }) => {
    const task = new FakeTask();
    task.legacyNames = true;
    // What 0.1 stored for this program before a restart: step a, its publish and fan-out after it, the sleep.
    task.steps.set("a", 1);
    task.markers.add("after a#1");
    task.fanOuts.set("fanout:after a#1", {
      request: { key: "fanout:after a#1", step: "echoStep", inputs: ["7"], settle: false, progress: true },
      done: true,
    });
    task.sleeps.set("after a#1", Date.now() + 31_000);
    const outcome = await runToEnd(task, async (job) => {
      await job.step("a", () => 1);
      await job.publish("x");
      expect(await job.fanOut(echoStep, [7])).toEqual([7]);
      await job.sleep(31);
      await job.publish("y");
    });
    expect(task.pieces).toEqual(["y"]);
    expect(task.fanOutStarts).toBe(0);
    expect(task.sleepSaves).toBe(0);
    expect(outcome.yields).toBe(1);
  });
});

// ---- the property: random programs, random replays, every effect once ----

type Retried = Extract<Op, { kind: "retried" }>;
type Op =
  | { kind: "step"; name: string; turns: number; body: Op[] }
  /** A step with retries: its first `failures` attempts throw (after `body`), waiting `delay` s before each retry. */
  | { kind: "retried"; name: string; turns: number; failures: number; delay: number; body: Op[] }
  | { kind: "all"; children: Op[] }
  | { kind: "seq"; children: Op[] }
  | { kind: "sleep"; seconds: number }
  | { kind: "publish"; text: string }
  | { kind: "fanOut"; inputs: number[] }
  | { kind: "elicit"; key: string }
  | { kind: "callback"; name: string };

/** mulberry32: a seeded generator, so a failing seed can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(rand: () => number): Op {
  let names = 0;
  const pick = (n: number) => Math.floor(rand() * n);
  const op = (depth: number, inStep: boolean): Op => {
    const roll = pick(depth > 2 ? 4 : 7);
    // Few distinct texts and inputs, so identical calls are common: they must each happen once too.
    if (roll === 0) return { kind: "publish", text: `piece ${pick(3)}` };
    if (roll === 1) return { kind: "sleep", seconds: inStep ? 0 : pick(2) === 0 ? 0 : 31 };
    if (roll === 2 && !inStep) return { kind: "fanOut", inputs: [pick(3), pick(3)] };
    if (roll === 3 && !inStep)
      return pick(2) === 0 ? { kind: "elicit", key: `q${names++}` } : { kind: "callback", name: `c${names++}` };
    if ((roll <= 3 || roll === 4) && pick(3) === 0) {
      // A step with options waits for nothing durable inside: its body only publishes.
      const body = Array.from({ length: pick(3) }, (): Op => ({ kind: "publish", text: `piece ${pick(3)}` }));
      return { kind: "retried", name: `r${names++}`, turns: pick(5), failures: pick(3), delay: pick(2) * 60, body };
    }
    if (roll <= 3 || roll === 4) {
      const body = Array.from({ length: pick(3) }, () => op(depth + 1, true));
      return { kind: "step", name: `s${names++}`, turns: pick(5), body };
    }
    const children = Array.from({ length: 1 + pick(4) }, () => op(depth + 1, inStep));
    return roll === 5 ? { kind: "all", children } : { kind: "seq", children };
  };
  return { kind: "seq", children: Array.from({ length: 2 + pick(4) }, () => op(0, false)) };
}

async function exec(op: Op, job: JobContext, task: FakeTask): Promise<void> {
  switch (op.kind) {
    case "retried":
      await job.step(
        op.name,
        // Limit well above the failures: lost attempts (crashes) count too.
        { retries: { limit: 30, delay: op.delay, backoff: "constant" } },
        async ({ attempt, idempotencyKey, interrupted }) => {
          await turns(op.turns);
          for (const inner of op.body) await exec(inner, job, task);
          if (attempt <= op.failures) throw new Error(`attempt ${attempt} fails`);
          task.effects.push({ step: op.name, attempt, key: idempotencyKey, interrupted });
          return op.name;
        },
      );
      return;
    case "step":
      await job.step(op.name, async () => {
        await turns(op.turns);
        for (const inner of op.body) await exec(inner, job, task);
        return op.name;
      });
      return;
    case "all":
      await Promise.all(op.children.map((child) => exec(child, job, task)));
      return;
    case "seq":
      for (const child of op.children) await exec(child, job, task);
      return;
    case "sleep":
      await job.sleep(op.seconds);
      return;
    case "publish":
      await job.publish(op.text);
      return;
    case "fanOut":
      await job.fanOut(echoStep, op.inputs);
      return;
    case "elicit":
      await job.elicit(op.key, { message: "?", requestedSchema: { type: "object", properties: {} } });
      return;
    case "callback": {
      const callback = await job.callback(op.name, { timeout: 600 });
      const got = await callback.wait();
      // What the job makes of the body is a step's result: recorded once (a replay reads it back).
      await job.step(`use ${op.name}`, () => (got.status === "received" ? String(got.body) : "timed out"));
      return;
    }
  }
}

function count(
  op: Op,
  tally: {
    publishes: string[];
    sleeps: number;
    longSleeps: number;
    fanOuts: number;
    steps: number;
    questions: number;
    retried: Retried[];
    callbacks: string[];
  },
): void {
  if (op.kind === "publish") tally.publishes.push(op.text);
  if (op.kind === "sleep") {
    tally.sleeps += 1;
    if (op.seconds >= 30) tally.longSleeps += 1;
  }
  if (op.kind === "fanOut") tally.fanOuts += 1;
  if (op.kind === "elicit") tally.questions += 1;
  if (op.kind === "callback") {
    tally.callbacks.push(op.name);
    tally.steps += 1;
    tally.longSleeps += 1;
  }
  if (op.kind === "step" || op.kind === "retried") {
    tally.steps += 1;
    for (const inner of op.body) count(inner, tally);
  }
  if (op.kind === "retried") {
    tally.retried.push(op);
    // Each retry waits: a long wait yields.
    if (op.delay >= 30) tally.longSleeps += op.failures;
  }
  if (op.kind === "all" || op.kind === "seq") for (const child of op.children) count(child, tally);
}

/**
 * The steps with retries did what they do outside once per successful attempt (an attempt runs
 * once), under one key per step, and a repeat after a success came only to an attempt told it
 * followed one its run left mid-way.
 */
function checkRetried(task: FakeTask, retried: Retried[], expect: ExpectStatic, where: string): void {
  const attempts = task.effects.map((e) => `${e.step}#${e.attempt}`);
  expect(new Set(attempts).size, where).toBe(attempts.length);
  for (const op of retried) {
    const mine = task.effects.filter((e) => e.step === op.name);
    expect(mine.length > 0, where).toBe(true);
    expect(new Set(mine.map((e) => e.key)).size, where).toBe(1);
    expect(
      mine.slice(1).every((e) => e.interrupted),
      where,
    ).toBe(true);
    expect(
      mine.every((e) => e.attempt > op.failures),
      where,
    ).toBe(true);
  }
}

describe("random programs of concurrent steps, steps with retries, sleeps, publishes, fan-outs, questions and callbacks", () => {
  it("record every effect once, whatever crashes, retries, sleeps and answers replay them", async ({ expect }) => {
    let retriedSteps = 0;
    let toldInterrupted = 0;
    let callbacks = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const rand = random(seed);
      const program = generate(rand);
      const expected = {
        publishes: [] as string[],
        sleeps: 0,
        longSleeps: 0,
        fanOuts: 0,
        steps: 0,
        questions: 0,
        retried: [] as Retried[],
        callbacks: [] as string[],
      };
      count(program, expected);
      const crashes = Array.from({ length: 12 }, () => (rand() < 0.4 ? Math.floor(rand() * 12) : undefined));
      const task = new FakeTask();
      const outcome = await runToEnd(task, (job) => exec(program, job, task), crashes);
      const where = `seed ${seed}: ${JSON.stringify(program)}`;
      expect([...task.pieces].sort(), where).toEqual([...expected.publishes].sort());
      expect(task.sleepSaves, where).toBe(expected.sleeps);
      expect(outcome.yields, where).toBeLessThanOrEqual(expected.longSleeps);
      expect(task.fanOutStarts, where).toBe(expected.fanOuts);
      expect(outcome.questions, where).toBe(expected.questions);
      expect(
        [...task.stepSaves.values()].every((n) => n === 1),
        where,
      ).toBe(true);
      expect(task.stepSaves.size, where).toBe(expected.steps);
      checkRetried(task, expected.retried, expect, where);
      // Every callback opened once, its body POSTed once and used once, whatever crashed around it.
      expect([...task.opened.keys()].sort(), where).toEqual([...expected.callbacks].sort());
      for (const name of expected.callbacks) expect(task.steps.get(`use ${name}`), where).toBe(`body of ${name}`);
      callbacks += expected.callbacks.length;
      retriedSteps += expected.retried.length;
      toldInterrupted += task.effects.filter((e) => e.interrupted).length;
    }
    // The generator does make them: the property is not checked on programs without any.
    expect(retriedSteps).toBeGreaterThan(50);
    // And crashes do leave attempts mid-way, which the next attempt is told of.
    expect(toldInterrupted).toBeGreaterThan(0);
    expect(callbacks).toBeGreaterThan(20);
  });
});
