/**
 * `job.fanOut(step, inputs)`: on a task, the items are stored with it and the run ends (the
 * TaskObject sends them to the step queue and wakes the job when their results are in); a replay
 * finds them by key and returns the stored results. Without a task (an inline call) the items run
 * here, concurrently, once each.
 */
import { MAX_FAN_OUT_ITEMS, type FanOutStatus, type JobHost } from "../core";
import { abortableDelay, FanOutItemError, PermanentError, type FanOutOptions, type JobContext } from "./context";
import { stepName, type Settled, type Step, type StepContext, type StepMap } from "./steps";
import { storedJsonText } from "./stored-json";
import type { YieldState } from "./yield-state";

/**
 * Largest JSON of one item's input. A claim hands a consumer up to 100 inputs in one call, which
 * must stay well under the 32 MiB limit of a Durable Object call; large data goes by key (R2, KV).
 */
export const MAX_STEP_INPUT_BYTES = 128 * 1024;

/** Largest JSON of all of one fan-out's inputs together: they are written to the task in one turn. */
export const MAX_FAN_OUT_INPUT_BYTES = 32 * 1024 * 1024;

/** Thrown to end the run while fanned-out items run; the runner reads the wait from the YieldState. */
export class FanOutWait extends Error {
  override readonly name = "FanOutWait";
  constructor() {
    super("The job waits for its fanned-out items; it resumes when their results are in.");
  }
}

export interface FanOutDeps {
  host: JobHost;
  yieldState: YieldState;
  steps: StepMap | undefined;
  /** The name of this fan-out (durable-names.ts), and release 0.1's for a task it recorded. */
  nextKey(step: string, inputs: readonly unknown[]): { key: string; legacy?: string | undefined };
  throwIfAborted(): void;
}

/** One item's outcome, its value still JSON text; "skipped" items were left unrun when another failed. */
type ItemOutcome = { ok: true; json: string } | { ok: false; error: string; skipped?: true };

const summary = (input: unknown): string => {
  const text = JSON.stringify(input) ?? String(input);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

export function fanOutFunction(deps: FanOutDeps): JobContext["fanOut"] {
  function fanOut<I, O>(
    step: Step<I, O>,
    inputs: readonly I[],
    options?: FanOutOptions & { settle?: false },
  ): Promise<O[]>;
  function fanOut<I, O>(
    step: Step<I, O>,
    inputs: readonly I[],
    options: FanOutOptions & { settle: true },
  ): Promise<Settled<O>[]>;
  async function fanOut<I, O>(
    step: Step<I, O>,
    inputs: readonly I[],
    options: FanOutOptions = {},
  ): Promise<O[] | Settled<O>[]> {
    const name = stepName(deps.steps, step);
    if (name === undefined) {
      throw new PermanentError(
        "job.fanOut: this step is not listed in the tool's `steps`; list it there (steps: { myStep }) so the queue consumer can find it by name.",
      );
    }
    if (!Array.isArray(inputs) || inputs.length > MAX_FAN_OUT_ITEMS) {
      throw new PermanentError(`job.fanOut(${name}) takes an array of at most ${MAX_FAN_OUT_ITEMS} inputs.`);
    }
    let names: { key: string; legacy?: string | undefined };
    try {
      names = deps.nextKey(name, inputs);
    } catch (error) {
      if (error instanceof PermanentError) throw error;
      throw new PermanentError(`job.fanOut(${name}): its inputs must be JSON values (${String(error)}).`);
    }
    deps.throwIfAborted();
    if (inputs.length === 0) return [];
    const outcomes = deps.host.fanOut
      ? durable(deps, names, name, step, inputs, options)
      : await inPlace(deps.host, name, step, inputs);
    // The stored JSON, as job.step returns it: a replay sees exactly what the first run saw.
    const values = outcomes.map(
      (o): Settled<O> => (o.ok ? { ok: true, value: JSON.parse(o.json) as O } : { ok: false, error: o.error }),
    );
    if (options.settle === true) return values;
    const failed = outcomes.findIndex((o) => !o.ok && !o.skipped);
    const failure = outcomes[failed];
    if (failure && !failure.ok)
      throw new FanOutItemError(
        `${name}[${failed}] (input ${summary(inputs[failed])}) failed: ${failure.error}`,
        failed,
      );
    if (outcomes.some((o) => !o.ok))
      throw new PermanentError(`job.fanOut(${name}) ended without results for some items.`);
    return values.flatMap((v) => (v.ok ? [v.value] : []));
  }
  return fanOut;
}

/** On a task: the stored outcomes, or the fan-out is started (or still running) and the run ends. */
function durable<I, O>(
  deps: FanOutDeps,
  names: { key: string; legacy?: string | undefined },
  name: string,
  step: Step<I, O>,
  inputs: readonly I[],
  options: FanOutOptions,
): ItemOutcome[] {
  const port = deps.host.fanOut;
  if (!port) throw new PermanentError("job.fanOut needs a task.");
  let key = names.key;
  let status: FanOutStatus | undefined = port.status(key);
  const legacyStatus = status || names.legacy === undefined ? undefined : port.status(names.legacy);
  if (legacyStatus && names.legacy !== undefined) {
    key = names.legacy;
    status = legacyStatus;
  }
  if (!status) {
    // Nothing could ever send its items: the task fails now, in words naming what to bind.
    if (port.unavailable !== undefined) throw new PermanentError(port.unavailable);
    let bytes = 0;
    const texts = inputs.map((input, index) => {
      const parsed = step.input.safeParse(input);
      if (!parsed.success)
        throw new PermanentError(
          `job.fanOut(${name}): input ${index} does not match the step's schema: ${parsed.error.message}`,
        );
      const text = storedJsonText(`job.fanOut(${name}) input ${index}`, input, "is", MAX_STEP_INPUT_BYTES);
      bytes += text.length;
      return text;
    });
    if (bytes > MAX_FAN_OUT_INPUT_BYTES) {
      throw new PermanentError(
        `job.fanOut(${name}): its inputs total ${bytes} bytes; at most ${MAX_FAN_OUT_INPUT_BYTES}. Pass keys to large data (R2, KV) instead.`,
      );
    }
    port.start({
      key,
      step: name,
      inputs: texts,
      settle: options.settle === true,
      progress: options.progress !== false,
    });
    status = { state: "pending", finished: 0, total: inputs.length };
  }
  const total = status.state === "pending" ? status.total : status.items.length;
  if (total !== inputs.length) {
    throw new PermanentError(
      `job.fanOut(${name}) got ${inputs.length} inputs where an earlier run of this job fanned out ${total}: the code before a fan-out must be deterministic.`,
    );
  }
  if (status.state === "pending") {
    deps.yieldState.fanOut = { message: `${status.finished} of ${status.total} items done.` };
    throw new FanOutWait();
  }
  return status.items.map((item): ItemOutcome => {
    if (item.state === "done") return { ok: true, json: item.value ?? "null" };
    if (item.state === "failed") return { ok: false, error: item.error ?? "it failed" };
    return { ok: false, error: "not run: another item failed first", skipped: true };
  });
}

/** Without a task (an inline call): run every item here, concurrently, one attempt each. */
async function inPlace<I, O>(
  host: JobHost,
  name: string,
  step: Step<I, O>,
  inputs: readonly I[],
): Promise<ItemOutcome[]> {
  const settled = await Promise.allSettled(
    inputs.map(async (input, index) => {
      const ctx: StepContext = {
        taskId: host.taskId,
        index,
        attempt: 1,
        signal: host.signal,
        log: async (message, level = "info") => host.log(level, `${name}[${index}]: ${message}`),
        sleep: (seconds) => abortableDelay(seconds * 1000, host.signal),
        // Inline there is no task to hold partial output: the result is all the caller gets.
        publish: async () => undefined,
      };
      return storedJsonText(`${name}[${index}]`, await step.run(step.input.parse(input), ctx));
    }),
  );
  return settled.map(
    (s): ItemOutcome =>
      s.status === "fulfilled"
        ? { ok: true, json: s.value }
        : { ok: false, error: s.reason instanceof Error ? s.reason.message : String(s.reason) },
  );
}
