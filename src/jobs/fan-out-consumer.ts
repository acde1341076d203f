/**
 * The step queue's consumer: runs fanned-out items, a batch's items concurrently. Each item is
 * claimed from its task first (done already, running elsewhere, cancelled, or the task gone: it is
 * acknowledged without running), its result is stored through the task (once), and a throwing step
 * is retried through the queue after the delay its task asks for. While items run, the batch asks
 * each task once a second whether to stop them, which also keeps their leases.
 */
import {
  backoff,
  taskObjectName,
  StepMessageSchema,
  type StepClaim,
  type StepMessage,
  type TaskObjectsEnv,
} from "../core";
import { MAX_PARTIAL_PIECES, parseBlocks, type PartialBlock } from "../core";
import { abortableDelay, PartialLimitError, PermanentError } from "./context";
import { errorMessage, isPermanent } from "./errors";
import type { Step, StepContext } from "./steps";
import { storedJsonText } from "./stored-json";
import { isDeadLetterQueue } from "../queues/routing";
import { handleUnreadable, schemaProblem } from "../queues/unreadable";

/**
 * How often a running batch asks each of its tasks which items to stop: a cancelled task's items see
 * their signal abort within about this long. One small request per task per second.
 */
export const HEARTBEAT_MS = 1000;

/** Finds a step by the tool that declared it and its name there (the registry, wired in src/index.ts). */
export type FindStep = (tool: string, step: string) => Step<unknown, unknown> | undefined;

type TaskStub = ReturnType<TaskObjectsEnv["TASKS"]["getByName"]>;

/** What happened to a batch's messages: one log line per batch. */
interface Tally {
  ran: number;
  stored: number;
  late: number;
  retried: number;
  failed: number;
  skipped: number;
  aborted: number;
  malformed: number;
}

/** A failed call to the task itself (not the step): the message comes back later, 1, 2, 4 … s, at most 5 min. */
const unreachableDelay = (attempts: number): number => backoff(attempts, 1, 300);

export function stepBatchHandler(
  findStep: FindStep,
): (batch: MessageBatch<unknown>, env: TaskObjectsEnv) => Promise<void> {
  return async (batch, env) => {
    const started = Date.now();
    const tally: Tally = { ran: 0, stored: 0, late: 0, retried: 0, failed: 0, skipped: 0, aborted: 0, malformed: 0 };
    const groups = new Map<string, { body: StepMessage; messages: Delivery[] }>();
    const unreadable: Promise<void>[] = [];
    for (const message of batch.messages) {
      const parsed = StepMessageSchema.safeParse(message.body);
      if (!parsed.success) {
        tally.malformed += 1;
        unreadable.push(handleUnreadable(message, batch.queue, schemaProblem("step", parsed.error), env));
        continue;
      }
      const key = JSON.stringify([parsed.data.principal, parsed.data.taskId, parsed.data.fanOut]);
      const group = groups.get(key) ?? { body: parsed.data, messages: [] };
      group.messages.push({ message, index: parsed.data.index });
      groups.set(key, group);
    }
    const deadLetters = isDeadLetterQueue(batch.queue);
    await Promise.allSettled([
      ...unreadable,
      ...[...groups.values()].map(({ body, messages }) => {
        const stub = env.TASKS.getByName(taskObjectName(body.principal, body.taskId));
        return deadLetters
          ? recordUndeliverable(stub, body.fanOut, messages, tally)
          : runGroup(stub, body, messages, findStep, tally);
      }),
    ]);
    console.info(
      JSON.stringify({
        event: "fan_out.batch",
        queue: batch.queue,
        messages: batch.messages.length,
        ...tally,
        ms: Date.now() - started,
      }),
    );
  };
}

/** A message with the item it names. */
interface Delivery {
  message: Message<unknown>;
  index: number;
}

/** One task's fan-out in this batch: claim its items in one call, run those claimed, acknowledge the rest. */
async function runGroup(
  stub: TaskStub,
  body: StepMessage,
  deliveries: Delivery[],
  findStep: FindStep,
  tally: Tally,
): Promise<void> {
  const { fanOut, taskId } = body;
  let claim: StepClaim;
  try {
    claim = await stub.claimSteps(fanOut, [...new Set(deliveries.map((d) => d.index))]);
  } catch (error) {
    console.error("step claim failed; retrying", fanOut, error);
    for (const { message } of deliveries) message.retry({ delaySeconds: unreachableDelay(message.attempts) });
    tally.retried += deliveries.length;
    return;
  }
  const claimed = new Map(claim.kind === "claimed" ? claim.items.map((item) => [item.index, item]) : []);
  const running = new Map<number, AbortController>();
  const work: Promise<void>[] = [];
  for (const { message, index } of deliveries) {
    const item = claimed.get(index);
    if (!item || claim.kind !== "claimed") {
      tally.skipped += 1;
      message.ack();
      continue;
    }
    claimed.delete(item.index); // a second copy of the message in this batch is a duplicate
    const controller = new AbortController();
    running.set(item.index, controller);
    const run = {
      stub,
      taskId,
      fanOut,
      tool: claim.tool,
      step: claim.step,
      index: item.index,
      attempt: item.attempt,
      input: item.input,
      message,
      signal: controller.signal,
    };
    work.push(runItem(run, findStep, tally).finally(() => running.delete(item.index)));
  }
  const allDone = new AbortController();
  const beating = heartbeat(stub, fanOut, running, allDone.signal);
  await Promise.allSettled(work);
  allDone.abort();
  await beating;
}

interface ItemRun {
  stub: TaskStub;
  taskId: string;
  fanOut: string;
  tool: string;
  step: string;
  index: number;
  attempt: number;
  input: string;
  message: Message<unknown>;
  signal: AbortSignal;
}

const piecesOf = (groups: readonly (readonly PartialBlock[])[]): number =>
  groups.reduce((sum, group) => sum + group.length, 0);

async function runItem(run: ItemRun, findStep: FindStep, tally: Tally): Promise<void> {
  const { stub, fanOut, index, message, signal } = run;
  const name = `${run.step}[${index}]`;
  tally.ran += 1;
  let value: string;
  /** Each publish call's blocks: recorded with the item's result, each call a publish of its own. */
  const published: PartialBlock[][] = [];
  try {
    const step = findStep(run.tool, run.step);
    if (!step)
      throw new PermanentError(
        `The tool "${run.tool}" has no step "${run.step}" any more (renamed or removed since the fan-out began).`,
      );
    const ctx: StepContext = {
      taskId: run.taskId,
      index,
      attempt: run.attempt,
      signal,
      log: async (text, level = "info") => void (await stub.appendLog(level, `${name}: ${text}`).catch(() => false)),
      sleep: (seconds) => abortableDelay(seconds * 1000, signal),
      publish: async (...blocks) => {
        const parsed = parseBlocks(blocks);
        if (!parsed.ok) throw new PermanentError(`ctx.publish: ${parsed.message}.`);
        // A task holds at most this many pieces: the call that would pass it fails here, not all of the item's output later.
        if (piecesOf(published) + parsed.blocks.length > MAX_PARTIAL_PIECES)
          throw new PartialLimitError(
            `ctx.publish: an item publishes at most ${MAX_PARTIAL_PIECES} pieces in all; publish fewer, larger pieces or a resource_link to the data.`,
          );
        published.push(parsed.blocks);
      },
    };
    value = storedJsonText(name, await step.run(step.input.parse(JSON.parse(run.input)), ctx));
  } catch (error) {
    if (signal.aborted) return aborted(message, tally);
    return reportFailure(run, errorMessage(error), isPermanent(error), tally);
  }
  if (signal.aborted) return aborted(message, tally);
  try {
    const outcome = await stub.stepDone(fanOut, index, value, published.length > 0 ? published : undefined);
    if (outcome === "stored") tally.stored += 1;
    else tally.late += 1;
    message.ack();
  } catch (error) {
    // The result did not reach the task: the item runs again later, and its first stored result wins.
    console.error("storing a step result failed; retrying", name, error);
    tally.retried += 1;
    message.retry({ delaySeconds: unreachableDelay(message.attempts) });
  }
}

function aborted(message: Message<unknown>, tally: Tally): void {
  tally.aborted += 1;
  message.ack();
}

async function reportFailure(run: ItemRun, error: string, permanent: boolean, tally: Tally): Promise<void> {
  try {
    const answer = await run.stub.stepFailed(run.fanOut, run.index, error, permanent);
    if (answer.kind === "retry") {
      tally.retried += 1;
      run.message.retry({ delaySeconds: answer.delaySeconds });
      return;
    }
    if (answer.kind === "final") tally.failed += 1;
    run.message.ack();
  } catch (rpcError) {
    console.error("reporting a step failure failed; retrying", run.step, run.index, rpcError);
    tally.retried += 1;
    run.message.retry({ delaySeconds: unreachableDelay(run.message.attempts) });
  }
}

/** Once a second while items run: renew their leases, and abort those the task says to stop. */
async function heartbeat(
  stub: TaskStub,
  fanOut: string,
  running: Map<number, AbortController>,
  done: AbortSignal,
): Promise<void> {
  while (!done.aborted && running.size > 0) {
    await abortableDelay(HEARTBEAT_MS, done).catch(() => undefined);
    if (done.aborted || running.size === 0) return;
    try {
      const stop = await stub.stepHeartbeat(fanOut, [...running.keys()]);
      for (const index of stop)
        running.get(index)?.abort(new Error("The task was cancelled or has ended, or the item finished elsewhere."));
    } catch (error) {
      // The next beat tries again; a lease outlasts a few missed beats.
      console.error("step heartbeat failed", fanOut, error);
    }
  }
}

/** The dead-letter queue: the queue gave up on these items' messages, so they fail in their task. */
async function recordUndeliverable(
  stub: TaskStub,
  fanOut: string,
  deliveries: Delivery[],
  tally: Tally,
): Promise<void> {
  await Promise.all(
    deliveries.map(async ({ message, index }) => {
      try {
        await stub.stepUndeliverable(
          fanOut,
          index,
          `the queue gave up delivering it after ${message.attempts} attempt${message.attempts === 1 ? "" : "s"}`,
        );
        tally.failed += 1;
        message.ack();
      } catch (error) {
        console.error("recording an undeliverable step failed; retrying", fanOut, error);
        tally.retried += 1;
        message.retry({ delaySeconds: unreachableDelay(message.attempts) });
      }
    }),
  );
}
