/**
 * The card's model and how it follows a task: it polls `task_activity` through the host at
 * the task's pollInterval until the task ends, and cancels or answers through tools. No DOM
 * here; `onChange` hands every new state to the view.
 */
import {
  ActivitySchema,
  isTerminal,
  relatedTaskId,
  taskDataOf,
  textOf,
  type Activity,
  type TaskData,
  type ToolResult,
} from "./data";

/** The task's server, reached through the host. */
export interface ServerTools {
  /** False when the host does not proxy tool calls (no `serverTools` capability). */
  available(): boolean;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export interface CardModel {
  tool?: string;
  args?: Record<string, unknown>;
  task?: TaskData;
  /** The call's final result (inline, or the task's once it ended). */
  result?: ToolResult;
  steps: Activity["steps"];
  stepCount: number;
  logs: Activity["logs"];
  /** The newest partial pieces, and how many there are in all. */
  partial: Activity["partial"];
  partialCount: number;
  /** Something the person should know that is not the task's state (lost connection, no tool access). */
  notice?: string;
  busy?: "cancel" | "answer";
  /** Question keys answered from this card, hidden until the task asks again. */
  answered: string[];
}

const KEEP_STEPS = 50;
const KEEP_LOGS = 6;
const MIN_POLL_MS = 250;
const VIEW_REFRESH_MS = 1000;
const MAX_BACKOFF_MS = 15_000;

export class TaskFollower {
  readonly model: CardModel = { steps: [], stepCount: 0, logs: [], partial: [], partialCount: 0, answered: [] };
  private cursor = 0;
  private following?: string;
  private stopped = false;
  private wake?: () => void;

  constructor(
    private readonly tools: ServerTools,
    private readonly onChange: (model: CardModel) => void,
  ) {}

  setInput(tool: string | undefined, args: Record<string, unknown> | undefined): void {
    if (tool !== undefined) this.model.tool = tool;
    if (args !== undefined) this.model.args = args;
    this.onChange(this.model);
  }

  /** The call's result arrived: either the still-running fallback (follow the task) or the final result. */
  receiveResult(result: ToolResult): void {
    const task = taskDataOf(result);
    if (task && !isTerminal(task.status)) {
      this.model.task = task;
      this.onChange(this.model);
      void this.follow(task.taskId); // runs until the task ends or the card is torn down
      return;
    }
    this.model.result = task?.result ?? result;
    if (task) this.model.task = task;
    this.onChange(this.model);
    // A result that came from a task: one look at its steps and log, for the record.
    const taskId = task?.taskId ?? relatedTaskId(result);
    if (taskId) void this.follow(taskId);
  }

  cancelled(reason: string | undefined): void {
    this.model.notice = `The host cancelled the call${reason ? `: ${reason}` : "."}`;
    this.onChange(this.model);
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  async cancel(): Promise<void> {
    const taskId = this.model.task?.taskId;
    if (!taskId || this.model.busy) return;
    await this.act("cancel", () => this.tools.call("task_cancel", { taskId }));
  }

  /** Answers one question (`inputResponses` as in 2026 `tasks/update`) through the `task_input` tool. */
  async answer(
    key: string,
    response: { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> },
  ): Promise<void> {
    const taskId = this.model.task?.taskId;
    if (!taskId || this.model.busy) return;
    const ok = await this.act("answer", () =>
      this.tools.call("task_input", { taskId, inputResponses: { [key]: response } }),
    );
    if (ok) this.model.answered = [...this.model.answered, key];
    this.onChange(this.model);
  }

  private async act(kind: "cancel" | "answer", call: () => Promise<ToolResult>): Promise<boolean> {
    this.model.busy = kind;
    this.onChange(this.model);
    let ok = false;
    try {
      const reply = await call();
      const task = taskDataOf(reply);
      if (task) this.model.task = task;
      ok = reply.isError !== true;
      this.model.notice = ok ? undefined : textOf(reply) || `The ${kind} was refused.`;
    } catch (error) {
      this.model.notice = `Could not ${kind}: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.model.busy = undefined;
      this.onChange(this.model);
      this.wake?.(); // look again now rather than at the next tick
    }
    return ok;
  }

  private async follow(taskId: string): Promise<void> {
    if (this.following === taskId) return;
    this.following = taskId;
    if (!this.tools.available()) {
      this.model.notice =
        "This chat client does not let the card call the server, so it cannot follow the task; ask for task_status instead.";
      this.onChange(this.model);
      return;
    }
    let failures = 0;
    while (!this.stopped) {
      // The task's pollInterval says when its end may come (up to minutes far from it); a person
      // watching the card wants its progress, so the card looks at least once a second.
      let delay = Math.min(this.model.task?.pollInterval ?? VIEW_REFRESH_MS, VIEW_REFRESH_MS);
      try {
        const reply = await this.tools.call("task_activity", { taskId, after: this.cursor });
        const activity = ActivitySchema.safeParse(reply.structuredContent);
        if (!activity.success) {
          // The server answered, but not with the task: it is gone (expired) or not ours.
          this.model.notice = textOf(reply) || "The server did not return the task.";
          this.onChange(this.model);
          return;
        }
        failures = 0;
        this.model.notice = undefined;
        if (this.apply(activity.data)) return;
        if (activity.data.more) delay = 0;
      } catch (error) {
        failures += 1;
        delay = Math.min(MAX_BACKOFF_MS, delay * 2 ** failures);
        this.model.notice = `Lost touch with the server (${error instanceof Error ? error.message : String(error)}); trying again.`;
        this.onChange(this.model);
      }
      await this.sleep(Math.max(delay, delay === 0 ? 0 : MIN_POLL_MS));
    }
  }

  /** Takes one poll's answer; true once the task has ended and every event was read. */
  private apply(activity: Activity): boolean {
    const { steps, logs, partial, cursor, more, ...task } = activity;
    this.cursor = cursor;
    this.model.task = task;
    this.model.stepCount += steps.length;
    this.model.steps = [...this.model.steps, ...steps].slice(-KEEP_STEPS);
    this.model.logs = [...this.model.logs, ...logs].slice(-KEEP_LOGS);
    this.model.partialCount = Math.max(this.model.partialCount, ...partial.map((piece) => piece.n));
    this.model.partial = [...this.model.partial, ...partial].slice(-KEEP_STEPS);
    // Questions the task no longer asks may be asked again under the same key later: forget them.
    this.model.answered = this.model.answered.filter((key) => task.inputRequests?.[key] !== undefined);
    const ended = isTerminal(task.status) && !more;
    if (ended && task.result) this.model.result = task.result;
    this.onChange(this.model);
    return ended;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
