/**
 * What a Workflow's code uses to talk to its task: progress, log lines, steps that show in the
 * task's event log, and questions to a person. Each call is one RPC to the task's Durable Object
 * (engine-reports.ts), never a poll; a question puts the task in `input_required` and waits for the
 * answer with `step.waitForEvent`, which every answer path of the task sends once it is validated.
 * When the task has ended (cancelled, expired) a call throws a NonRetryableError, ending the instance.
 */
import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import {
  questionProblem,
  type PartialBlock,
  type InputAnswer,
  type InputQuestion,
  type EngineReport,
  type ReportReply,
  type LogLevel,
} from "../core";
import { answerEventType, questionNote } from "./names";

/** The task's Durable Object, as the Workflow reaches it. */
export interface TaskReports {
  report(report: EngineReport): Promise<ReportReply>;
}

/** The wait outlasts the task by this much: the task's expiry terminates the instance first (engine-observer.ts). */
const EXPIRY_GRACE_MS = 60_000;

export interface ProgressReport {
  done: number;
  total?: number;
  message?: string;
}

export interface StepOptions {
  /** Progress to report once the step has finished. */
  progress?: ProgressReport;
  /** Partial output to publish once the step has finished, with it: recorded once, however often the step runs. */
  publish?: string | PartialBlock | (string | PartialBlock)[];
  /** The step's retries and timeout (Workflows' WorkflowStepConfig; by default 5 retries, 10 minutes). */
  config?: WorkflowStepConfig;
}

export class TaskLink {
  private asked = 0;
  private published = 0;

  constructor(
    private readonly task: TaskReports,
    private readonly workflowStep: WorkflowStep,
  ) {}

  /** Progress of the task (values must increase; a repeat after a replay is dropped, so it is safe outside a step). */
  async progress(done: number, total?: number, message?: string): Promise<void> {
    await this.send({
      progress: progressOf({ done, ...(total !== undefined && { total }), ...(message !== undefined && { message }) }),
    });
  }

  /** A log line in the task's event log. Outside a step it is sent again when the Workflow replays; inside one it is not. */
  async log(message: string, level: LogLevel = "info"): Promise<void> {
    await this.send({ log: { level, message } });
  }

  /**
   * `step.do(name, config, fn)`, then a `step` event in the task (and `progress`, if given),
   * reported from inside the step: a replayed Workflow skips the step and reports nothing again.
   * @example await task.step(`page ${page}`, () => buildPage(page), { progress: { done: page, total: pages } })
   */
  async step<T extends Rpc.Serializable<T>>(name: string, fn: () => Promise<T>, options: StepOptions = {}): Promise<T> {
    const { progress, publish, config = {} } = options;
    return this.workflowStep.do(name, config, async () => {
      const value = await fn();
      const content = publish === undefined ? undefined : Array.isArray(publish) ? publish : [publish];
      const published = content && { publish: { key: `step:${name}`, content } };
      await this.send({ step: name, ...(progress && { progress: progressOf(progress) }), ...published });
      return value;
    });
  }

  /**
   * Partial output (strings or text / resource_link blocks), each the task's next piece. A step of
   * its own, counted like `ask`: a replayed Workflow skips it. Inside a `step`, use its `publish` option.
   * @example await task.publish(`Found ${rows} rows.`)
   */
  async publish(...pieces: (string | PartialBlock)[]): Promise<void> {
    const n = ++this.published;
    const report = { publish: { key: `publish:${n}`, content: pieces } };
    await this.workflowStep.do(`mcp: publish ${n}`, async () => void (await this.send(report)));
  }

  /**
   * Ask a person (the same form rules as `job.elicit`) and wait for the answer: the task goes
   * `input_required`, and the answer, checked against `requestedSchema`, arrives as this instance's
   * event. Waits until the task expires (whose expiry terminates the instance). `content` comes only with `accept`.
   */
  async ask(key: string, question: InputQuestion): Promise<InputAnswer> {
    const problem = questionProblem(key, question);
    if (problem !== undefined) throw new NonRetryableError(`task.ask: ${problem}.`);
    const n = ++this.asked;
    const expiresAt = await this.workflowStep.do(`mcp: ask ${key}`, async () => {
      const reply = await this.send({
        note: {
          name: questionNote(n),
          value: { key, message: question.message, requestedSchema: question.requestedSchema },
        },
        wake: true,
      });
      return reply.expiresAt;
    });
    const event = await this.workflowStep.waitForEvent<InputAnswer>(`mcp: answer ${key}`, {
      type: answerEventType(n),
      timeout: Math.max(1000, expiresAt - Date.now()) + EXPIRY_GRACE_MS,
    });
    return event.payload;
  }

  /** Sends a report; throws (ending the instance) when the task is no longer there to hear it. */
  async send(report: EngineReport): Promise<{ expiresAt: number }> {
    const reply = await this.task.report(report);
    const refused = reply.state === "live" ? reply.refused : undefined;
    if (refused !== undefined) throw new NonRetryableError(`task.publish: ${refused}`);
    if (reply.state !== "live") {
      throw new NonRetryableError(
        reply.state === "ended"
          ? "The task has ended (cancelled or failed), so its Workflow stops."
          : "The task is gone (its ttl ran out), so its Workflow stops.",
      );
    }
    return reply;
  }
}

const progressOf = ({ done, total, message }: ProgressReport) => ({
  progress: done,
  ...(total !== undefined && { total }),
  ...(message !== undefined && { message }),
});
