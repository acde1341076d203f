/**
 * The JobContext a tool's `run` receives: progress, cancellation, logs,
 * memoized steps and durable sleep, and what `run` returns. This is the whole API tool authors touch.
 */
import type { InputAnswer, InputQuestion, LogLevel, PartialBlock } from "../core";
import type { Callback, CallbackOptions } from "./callback-types";
import type { StepAttempt, StepOptions } from "./step-options";
import type { Settled, Step } from "./steps";
import type { JsonObject } from "../json";

export type { InputAnswer, InputQuestion, LogLevel, PartialBlock };
export type { Settled, Step, StepContext } from "./steps";
export type { Backoff, Duration, StepAttempt, StepOptions, StepRetries } from "./step-options";
export type { Callback, CallbackOptions, CallbackResult } from "./callback-types";

export interface FanOutOptions {
  /**
   * Collect failures instead of failing: each result is `{ ok: true, value }` or `{ ok: false, error }`.
   * Without it, an item that fails for good (a PermanentError, or its retries used up) fails the job.
   */
  settle?: boolean;
  /** Report progress (items done of all) automatically; false when the tool reports its own. Default true. */
  progress?: boolean;
}

export type ToolContent =
  | { type: "text"; text: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string }
  | { type: string; [key: string]: unknown };

/** A tool's result: MCP's CallToolResult shape. A plain string becomes one text block. */
export interface ToolResult {
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

export function toToolResult(value: ToolResult | string): ToolResult {
  return typeof value === "string" ? { content: [{ type: "text", text: value }] } : value;
}

/** The text blocks of a result, joined: what the tool said in words. */
export const textOf = (result: ToolResult): string =>
  result.content
    .flatMap((block) => (block.type === "text" && typeof block["text"] === "string" ? [block["text"]] : []))
    .join("\n");

/**
 * A finished result with its words in `structuredContent.summary` as well as in its text: clients
 * that pass the model only `JSON.stringify(structuredContent)` (Claude Code) lose no meaning. An
 * error result stays text only (the model reads its text; output validation skips it).
 */
export function withSummary(value: ToolResult | string): ToolResult {
  const result = toToolResult(value);
  if (result.isError === true) return result;
  const own = result.structuredContent ?? {};
  if (typeof own["summary"] === "string") return result;
  return { ...result, structuredContent: { summary: textOf(result), ...own } };
}

/** `Caller`: what `job.caller` holds; a tool that declares a `caller` schema (defineTool) gets its type. */
export interface JobContext<Caller = unknown> {
  /** The task this run belongs to. */
  readonly taskId: string;
  /**
   * The Worker's env, as `wrangler types` declares it (Cloudflare.Env): the bindings and secrets
   * the tool reaches its own services with, in every run of a task and in an inline call.
   * @example const row = await job.env.DB.prepare("SELECT 1").first()
   */
  readonly env: Cloudflare.Env;
  /**
   * What the server's auth knew of the caller when the task was created (an OAuth grant's props, an
   * API key's name), the same in every run of the task however much later, and never shown to any
   * reader of it. Parsed with the tool's `caller` schema when it declares one. Reading it throws a
   * PermanentError, in words the tool may pass on, when it can no longer be had (its key rotated
   * away, the adopter's `resolveCaller` refused: a revoked grant).
   * @example await fetch(url, { headers: { Authorization: `Bearer ${job.caller.apiKey}` } })
   */
  readonly caller: Caller;
  /** 1 on the first run; higher when the job is resumed after a sleep, a crash or a retry. */
  readonly attempt: number;
  /**
   * The version of the tool (`defineTool({ version })`) this task started on: the same in every run,
   * also after a deploy of a newer version. 1 for a tool that declares none, and for a task started
   * by a release before versions. Branch on it so tasks in flight finish on the path they began.
   * @example
   * if (job.version < 2) await job.step("charge", () => charge(order)); // tasks started on version 1
   * else await job.step("charge with tax", () => charge(withTax(order)));
   */
  readonly version: number;
  /** Aborts when the task is cancelled (or the run must stop). Pass it to fetch() and timers. */
  readonly signal: AbortSignal;
  /**
   * Report progress. Values must increase; a repeat from a replayed run is dropped.
   * @example await job.progress(3, 10, "3 of 10 files")
   */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /**
   * Publish partial output: each string or block (text, resource_link) becomes the task's next
   * numbered piece, which every reader of the task sees at once (docs/partial-results.md). Recorded
   * once: named by where it runs and what it holds, so a resumed run's repeat is skipped. Past
   * the task's limit (1000 pieces, 256 KiB) it throws a PartialLimitError and records nothing.
   * @example await job.publish(`Found ${hits.length} matches in ${file}.`)
   */
  publish(...pieces: (string | PartialBlock)[]): Promise<void>;
  /**
   * Emit an occurrence of an event type this server serves (docs/events.md), for this task's owner
   * when the type is seen only by owners. Recorded once: named like a publish, by where it runs and
   * what it emits, so a resumed run's repeat is the same occurrence (the same eventId), never a second.
   * @example await job.emit("invoice.paid", { invoiceId, customer, amount })
   */
  emit(name: string, data: JsonObject, options?: { eventId?: string }): Promise<void>;
  /** Append a `log` event to the task's event log. */
  log(message: string, level?: LogLevel): Promise<void>;
  /**
   * Run `fn` once per task: its JSON result is stored, and a resumed or retried run
   * gets the stored result without running `fn` again.
   * @example const rows = await job.step("fetch rows", () => db.query(sql))
   */
  step<T>(name: string, fn: (attempt: StepAttempt) => T | Promise<T>): Promise<T>;
  /**
   * A step with its own policy: each attempt may run for `timeout` (its signal aborts past it) and
   * a failed one is retried, up to `retries.limit` attempts in all, after `retries.delay` growing by
   * `retries.backoff` (a long wait ends the run; the task wakes for the next attempt). Attempts are
   * journaled: the task document lists them, and `interrupted` tells an attempt after a lost one.
   * Past the limit it throws a StepFailedError naming the step and its last error.
   * @example
   * const charge = await job.step("charge", { retries: { limit: 5, delay: "10 seconds", backoff: "exponential" }, timeout: "30 seconds" },
   *   ({ idempotencyKey, signal }) => payments.charge(order, { idempotencyKey, signal }));
   */
  step<T>(name: string, options: StepOptions, fn: (attempt: StepAttempt) => T | Promise<T>): Promise<T>;
  // Durable names (docs/writing-tools.md): a step by `name`; a sleep, fan-out or publish by the step it runs in and its arguments.
  /**
   * Wait durably. Short waits are timers; long ones (or ones past this run's time slice)
   * end the run and the task is woken later, resuming through its memoized steps.
   * Each call is remembered by where it runs and its arguments, so a resumed run does not wait again.
   * @example await job.sleep(3600, "waiting for the export to finish")
   */
  sleep(seconds: number, reason?: string): Promise<void>;
  /** Like `sleep`, to an absolute time; not memoized (the target itself is stable). */
  sleepUntil(time: number | Date, reason?: string): Promise<void>;
  /**
   * Ask a person and wait durably for the answer (human in the loop). The task goes
   * `input_required` with `message` as its status message and nothing running; the answer (checked
   * against `requestedSchema`, MCP's elicitation form: a flat object of string, number, boolean or
   * enum fields) wakes it, and this run's replay gets it here. Memoized like `step`: `key` is asked
   * once per task, and a resumed run gets the stored answer back. `content` comes only with `accept`.
   * @example
   * const answer = await job.elicit("approve", {
   *   message: "Delete 120 rows from orders?",
   *   requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
   * });
   * if (answer.action !== "accept" || answer.content?.confirm !== true) return "Nothing deleted.";
   */
  elicit(key: string, question: InputQuestion): Promise<InputAnswer>;
  /**
   * Run `step` once per input, in parallel, each item a queue message run by a consumer; resolves
   * with the results in input order. The job's run ends while the items run (it holds nothing) and
   * resumes when the last result is stored; a resumed run gets the stored results without running
   * any item again. `step` must be listed in the tool's `steps`. Named by what it fans out, like a sleep.
   * @example const sizes = await job.fanOut(resizeOne, keys.map((key) => ({ key })))
   */
  /**
   * Wait for an outside system: `url` is a single-use, unguessable URL, good until `timeout`, that
   * it POSTs its JSON to when done. `wait()` ends the run (nothing is held) and resolves, in a later
   * run, to `{ status: "received", body }` or `{ status: "timed_out" }`. A body that arrives before
   * the job waits is kept. Opened once per task and name: a replay gets the same URL. Needs PUBLIC_URL.
   * @example
   * const cb = await job.callback("transcode done", { timeout: "1 hour" });
   * await job.step("submit", ({ idempotencyKey }) => transcoder.submit({ file, notify: cb.url, idempotencyKey }));
   * const done = await cb.wait();
   * if (done.status === "timed_out") return "The transcoder did not answer within an hour.";
   */
  callback(name: string, options: CallbackOptions): Promise<Callback>;
  fanOut<I, O>(step: Step<I, O>, inputs: readonly I[], options?: FanOutOptions & { settle?: false }): Promise<O[]>;
  fanOut<I, O>(
    step: Step<I, O>,
    inputs: readonly I[],
    options: FanOutOptions & { settle: true },
  ): Promise<Settled<O>[]>;
}

/** Thrown by a tool to fail the task at once, without retries. */
export class PermanentError extends Error {
  override readonly name = "PermanentError";
}

/** Thrown by `job.publish` past the task's limit of partial output; a PermanentError: uncaught, the job fails. */
export class PartialLimitError extends PermanentError {}

/** Thrown by `job.fanOut` (without `settle`) when an item failed for good; a PermanentError, so the job fails unless it catches it. */
export class FanOutItemError extends PermanentError {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/**
 * Thrown by `job.step(name, { retries }, fn)` when its last attempt failed; a PermanentError, so the
 * task fails with its words unless the tool catches it.
 */
export class StepFailedError extends PermanentError {
  constructor(
    readonly step: string,
    readonly attempts: number,
    readonly lastError: string,
  ) {
    super(`Step "${step}" failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${lastError}`);
  }
}

/** Thrown inside `run` to end the run early; the runner reads the reason from the context, not the throw. */
export class JobYield extends Error {
  override readonly name = "JobYield";
  constructor(
    readonly wakeAt: number,
    readonly reason?: string,
  ) {
    super("The job yielded; it resumes later.");
  }
}

/** Thrown inside `run` when the job asks a question; the runner reads the questions from the context. */
export class JobInput extends Error {
  override readonly name = "JobInput";
  constructor() {
    super("The job asked a question; it resumes once the answer arrives.");
  }
}

/** A timer that rejects when `signal` aborts. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
