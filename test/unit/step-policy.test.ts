// A step's own policy, as the engine reads it: durations, backoff math, and options refused at the call.
import { describe, it } from "vitest";
import { PermanentError } from "../../src/jobs/context";
import { durationMs, MAX_STEP_RETRY_DELAY_MS, retryDelayMs, stepPolicy } from "../../src/jobs/step-policy";

describe("durations", () => {
  it("reads a number as seconds, as job.sleep does", ({ expect }) => {
    expect(durationMs(30, "t")).toBe(30_000);
    expect(durationMs(0.25, "t")).toBe(250);
    expect(durationMs(0, "t")).toBe(0);
  });

  it("reads words in the units Workflows takes, singular or plural, any case", ({ expect }) => {
    expect(durationMs("30 seconds", "t")).toBe(30_000);
    expect(durationMs("1 second", "t")).toBe(1000);
    expect(durationMs("5 minutes", "t")).toBe(300_000);
    expect(durationMs("1.5 hours", "t")).toBe(5_400_000);
    expect(durationMs("2 Days", "t")).toBe(172_800_000);
    expect(durationMs("250 milliseconds", "t")).toBe(250);
  });

  it("refuses anything else with a PermanentError naming the option and what it takes", ({ expect }) => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, "soon", "5 fortnights", "-3 seconds", "", null, {}]) {
      expect(() => durationMs(bad, "retries.delay")).toThrow(PermanentError);
    }
    expect(() => durationMs("soon", "retries.delay")).toThrow(
      /retries\.delay must be a number of seconds or words such as "30 seconds"/,
    );
  });
});

describe("the wait before each retry", () => {
  const delayMs = 1000;

  it("stays the same with constant backoff", ({ expect }) => {
    expect([1, 2, 3, 10].map((n) => retryDelayMs({ delayMs, backoff: "constant" }, n))).toEqual([
      1000, 1000, 1000, 1000,
    ]);
  });

  it("grows by the delay with linear backoff", ({ expect }) => {
    expect([1, 2, 3, 10].map((n) => retryDelayMs({ delayMs, backoff: "linear" }, n))).toEqual([
      1000, 2000, 3000, 10_000,
    ]);
  });

  it("doubles with exponential backoff", ({ expect }) => {
    expect([1, 2, 3, 10].map((n) => retryDelayMs({ delayMs, backoff: "exponential" }, n))).toEqual([
      1000, 2000, 4000, 512_000,
    ]);
  });

  it("never waits more than a day", ({ expect }) => {
    for (const backoff of ["constant", "linear", "exponential"] as const) {
      expect(retryDelayMs({ delayMs: 2 * MAX_STEP_RETRY_DELAY_MS, backoff }, 60)).toBe(MAX_STEP_RETRY_DELAY_MS);
    }
  });
});

describe("step options", () => {
  it("applies defaults: a delay of 1 s, exponential backoff, no timeout", ({ expect }) => {
    expect(stepPolicy("s", { retries: { limit: 3 } })).toEqual({ limit: 3, delayMs: 1000, backoff: "exponential" });
    expect(stepPolicy("s", { timeout: "5 minutes" })).toEqual({
      delayMs: 1000,
      backoff: "exponential",
      timeoutMs: 300_000,
    });
  });

  it("leaves the retries job-wide when the options name none", ({ expect }) => {
    expect(stepPolicy("s", {}).limit).toBeUndefined();
  });

  it("refuses options it cannot use, naming the step and the option", ({ expect }) => {
    const cases: [unknown, RegExp][] = [
      [{ retries: { limit: 0 } }, /job\.step\("s"\) was given options it cannot use at retries\.limit/],
      [{ retries: { limit: 2.5 } }, /at retries\.limit/],
      [{ retries: { limit: 101 } }, /at retries\.limit/],
      [{ retries: { limit: 2, backoff: "fibonacci" } }, /at retries\.backoff/],
      [{ retries: { limit: 2, delay: "later" } }, /retries\.delay must be a number of seconds/],
      [{ timeout: 0 }, /timeout must be more than 0 seconds/],
      [{ retry: { limit: 2 } }, /options it cannot use/],
      ["3 times", /options it cannot use/],
    ];
    for (const [options, words] of cases) expect(() => stepPolicy("s", options)).toThrow(words);
    expect(() => stepPolicy("a\u00001", {})).toThrow(/without NUL/);
  });
});
