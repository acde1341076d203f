/**
 * Step functions a job fans out (`job.fanOut`): each item runs in a queue consumer, in another
 * invocation than the job, so a step is a named, module-level function with a zod input schema,
 * never a closure over the job's variables. A tool lists its steps under `steps` in `defineTool`.
 *
 * @example
 * export const resizeOne = defineStep({
 *   input: z.object({ key: z.string() }),
 *   async run({ key }, ctx) {
 *     await resize(key, { signal: ctx.signal });
 *     return { key, bytes: 1234 };
 *   },
 * });
 */
import type * as z from "zod";
import type { LogLevel, PartialBlock } from "../core";

export interface StepContext {
  /** The task whose job fanned this item out. */
  readonly taskId: string;
  /** The item's position in the inputs given to `job.fanOut`. */
  readonly index: number;
  /** 1 on the first run of this item; higher on a retry, or after its consumer was lost. */
  readonly attempt: number;
  /** Aborts when the task is cancelled or expires (checked about once a second). Pass it to fetch(). */
  readonly signal: AbortSignal;
  /** Append a `log` event to the task's log, prefixed with the item's name. */
  log(message: string, level?: LogLevel): Promise<void>;
  /**
   * Partial output of this item (strings or text / resource_link blocks): kept until the item's
   * result is stored, then recorded with it, once, each call the task's next pieces, in the order
   * items finish. A call takes 1 to 100 pieces, an item at most 1000 in all (a PartialLimitError
   * at the call past that). An item that fails, or whose result comes too late, publishes nothing.
   */
  publish(...pieces: (string | PartialBlock)[]): Promise<void>;
  /** A timer that rejects when `signal` aborts: an item is one consumer invocation, so this is not durable. */
  sleep(seconds: number): Promise<void>;
}

/** A step: its input schema (checked when fanned out and again where it runs) and its function. */
export interface Step<I, O> {
  readonly input: z.ZodType<I>;
  run(input: I, ctx: StepContext): O | Promise<O>;
}

/** A tool's steps by name: the name is what its queue messages carry. */
export type StepMap = Readonly<Record<string, Step<unknown, unknown>>>;

/** One item's outcome with `{ settle: true }`. */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: string };

export function defineStep<I, O>(step: {
  input: z.ZodType<I>;
  run(input: I, ctx: StepContext): O | Promise<O>;
}): Step<I, O> {
  return { input: step.input, run: (input, ctx) => step.run(input, ctx) };
}

/** The name under which `step` is listed in `steps`, if it is. */
export function stepName<I, O>(steps: StepMap | undefined, step: Step<I, O>): string | undefined {
  if (!steps) return undefined;
  return Object.keys(steps).find((name) => Object.hasOwn(steps, name) && steps[name] === step);
}

/** The step listed as `name`, if any (own keys only: a message cannot name `constructor`). */
export const findStep = (steps: StepMap | undefined, name: string): Step<unknown, unknown> | undefined =>
  steps && Object.hasOwn(steps, name) ? steps[name] : undefined;
