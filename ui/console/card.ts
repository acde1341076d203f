/**
 * One task as a card. Test hooks (a fixed contract): the card is `[data-task-id]`, it holds a
 * `<progress>` whose value/max are the task's progress and a `.status` with the status text, and
 * a `[data-action="cancel"]` button only while the task runs. While it waits for an answer it also
 * holds the question's form (question.ts).
 */
import { age, duration, fraction, percent } from "./format";
import { questionForm, showRefusal, type Answer } from "./question";
import { attemptList } from "./attempts";
import { isTerminalStatus } from "./schema";
import { progressBar, type TaskState } from "./state";

export interface CardActions {
  cancel(taskId: string): void;
  answer(taskId: string, key: string, answer: Answer): void;
  details(taskId: string, open: boolean): void;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Card {
  readonly root = el("li", "task");
  private readonly status = el("span", "status");
  private readonly age = el("time", "age");
  private readonly actions = el("div", "actions");
  private readonly bar = el("progress");
  private readonly count = el("span", "count");
  private readonly message = el("p", "message");
  /** The partial output so far (test hook: `[data-partial]`, one `li[data-n]` per piece). */
  private readonly output = el("div", "partial");
  private readonly outcome = el("div", "outcome");
  private readonly asking = el("div", "asking");
  /** The question the form shows (its key), so a re-render keeps what the person typed. */
  private asked: string | undefined;
  private readonly toggle = el("button", "toggle");
  private readonly body = el("div", "more");
  private cancelButton: HTMLButtonElement | undefined;
  private state: TaskState;

  constructor(
    state: TaskState,
    private readonly act: CardActions,
  ) {
    this.state = state;
    this.root.dataset["taskId"] = state.taskId;
    const head = el("div", "head");
    const id = el("code", "id", state.taskId.slice(0, 8));
    id.title = state.taskId;
    head.append(this.status, el("span", "tool", state.tool), id, el("span", "spacer"), this.age, this.actions);
    const meter = el("div", "meter");
    meter.append(this.bar, this.count, this.toggle);
    // Steps and log on demand: opening them is what makes the page read a finished task's log.
    this.toggle.type = "button";
    this.toggle.setAttribute("aria-expanded", "false");
    this.body.hidden = true;
    this.toggle.addEventListener("click", () => {
      const open = this.toggle.getAttribute("aria-expanded") !== "true";
      this.body.hidden = !open;
      this.toggle.setAttribute("aria-expanded", String(open));
      this.act.details(state.taskId, open);
    });
    this.asking.hidden = true;
    this.output.dataset["partial"] = "";
    this.output.hidden = true;
    this.root.append(head, meter, this.message, this.output, this.asking, this.outcome, this.body);
    this.render(state, undefined);
  }

  update(state: TaskState): void {
    const previous = this.state;
    this.state = state;
    this.render(state, previous);
  }

  /** Ages move every second without any event. */
  tick(now: number): void {
    const { state } = this;
    const took = isTerminalStatus(state.status) ? ` · took ${duration(state.lastUpdatedAt - state.createdAt)}` : "";
    this.age.textContent = `${age(now - state.createdAt)}${took}`;
  }

  private render(state: TaskState, previous: TaskState | undefined): void {
    this.root.dataset["status"] = state.status;
    this.status.textContent = state.status;
    this.age.dateTime = new Date(state.createdAt).toISOString();
    this.age.title = `Created ${new Date(state.createdAt).toLocaleString()}`;
    this.tick(Date.now());
    this.renderCancel(state);
    if (previous?.result !== state.result || previous?.error !== state.error || !previous) this.renderOutcome(state);
    this.renderProgress(state);
    if (previous?.partial !== state.partial || !previous) this.renderPartial(state);
    this.renderQuestion(state);
    if (
      previous?.steps !== state.steps ||
      previous?.attempts !== state.attempts ||
      previous?.logs !== state.logs ||
      previous?.eventsRead !== state.eventsRead ||
      !previous
    )
      this.renderDetails(state);
  }

  private renderCancel(state: TaskState): void {
    if (isTerminalStatus(state.status)) {
      this.cancelButton?.remove();
      this.cancelButton = undefined;
      return;
    }
    if (this.cancelButton) return;
    const button = el("button", "cancel", "Cancel");
    button.type = "button";
    button.dataset["action"] = "cancel";
    button.title = "Cancel this task";
    button.addEventListener("click", () => {
      button.disabled = true;
      button.textContent = "Cancelling…";
      this.act.cancel(state.taskId);
    });
    this.cancelButton = button;
    this.actions.append(button);
  }

  private renderQuestion(state: TaskState): void {
    const first = state.status === "input_required" ? Object.entries(state.inputRequests ?? {})[0] : undefined;
    if (!first) {
      this.asking.replaceChildren();
      this.asking.hidden = true;
      this.asked = undefined;
      return;
    }
    const [key, request] = first;
    if (this.asked === key) return;
    this.asked = key;
    this.asking.replaceChildren(questionForm(key, request, (k, answer) => this.act.answer(state.taskId, k, answer)));
    this.asking.hidden = false;
  }

  /** The server refused the answer (it does not fit the form, or the task moved on): the form says why. */
  answerRefused(message: string): void {
    const form = this.asking.querySelector("form");
    if (form) showRefusal(form, message);
  }

  /** The cancel request failed: the button comes back. */
  cancelFailed(): void {
    if (!this.cancelButton) return;
    this.cancelButton.disabled = false;
    this.cancelButton.textContent = "Cancel";
  }

  private renderProgress(state: TaskState): void {
    const bar = progressBar(state);
    if (bar) {
      this.bar.max = bar.max;
      this.bar.value = bar.value;
      this.bar.title = `${percent(bar.value, bar.max)}%`;
    } else {
      this.bar.removeAttribute("value"); // indeterminate: running with no total yet
      this.bar.title = "";
    }
    const { progress } = state;
    this.count.textContent = progress
      ? `${fraction(progress.progress, progress.total)}${progress.total ? ` · ${percent(progress.progress, progress.total)}%` : ""}`
      : "";
    // The job's latest words while it runs; once it is done the outcome speaks, or else the status message.
    const text = isTerminalStatus(state.status)
      ? this.outcome.hidden
        ? state.statusMessage
        : undefined
      : (progress?.message ?? state.statusMessage);
    this.message.textContent = text ?? "";
    this.message.hidden = !text;
  }

  private renderPartial(state: TaskState): void {
    const pieces = state.partial ?? [];
    this.output.hidden = pieces.length === 0;
    if (pieces.length === 0) {
      this.output.replaceChildren();
      return;
    }
    const count = state.partialCount ?? pieces.length;
    const list = el("ol", "pieces");
    for (const piece of pieces) {
      const item = el("li", undefined, piece.text);
      item.value = piece.n;
      item.dataset["n"] = String(piece.n);
      list.append(item);
    }
    const earlier = count - pieces.length;
    const more = earlier > 0 ? [el("p", "muted", `${earlier} earlier pieces not shown`)] : [];
    this.output.replaceChildren(el("h3", undefined, `Output so far (${count})`), ...more, list);
  }

  private renderOutcome(state: TaskState): void {
    this.outcome.replaceChildren();
    this.outcome.hidden = true;
    // A cancelled task ends with an error result too, but it is no failure: it is shown plainly.
    const tone = (isError: boolean) => (state.status === "cancelled" ? "note" : isError ? "error" : "result");
    if (state.error) {
      this.outcome.append(el("pre", tone(true), `Error ${state.error.code}: ${state.error.message}`));
    } else if (state.result) {
      const text = (state.result.content ?? [])
        .flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : [`[${block.type}]`]))
        .join("\n");
      if (text) this.outcome.append(el("pre", tone(state.result.isError === true), text));
      // The summary repeats the text for models (docs/model-facing.md): show only the data.
      const { summary: _summary, ...structured } = state.result.structuredContent ?? {};
      if (Object.keys(structured).length > 0) this.outcome.append(table(structured));
    }
    this.outcome.hidden = this.outcome.childElementCount === 0;
  }

  private renderDetails(state: TaskState): void {
    const lines = state.logs.length + state.logsDropped;
    this.toggle.textContent = "Details";
    this.toggle.title = state.eventsRead
      ? `${plural(state.steps.length, "step")}, ${plural(lines, "log line")}`
      : "Steps and log";
    if (!state.eventsRead) {
      this.body.replaceChildren(el("p", "muted", "Loading steps and log…"));
      return;
    }
    const steps = el("ol", "steps");
    for (const name of state.steps) steps.append(el("li", undefined, name));
    const log = el("div", "log");
    if (state.logsDropped > 0) log.append(el("p", "muted", `${state.logsDropped} earlier lines not shown`));
    for (const line of state.logs) {
      const row = el("div", `line level-${line.level}`);
      row.append(el("span", "level", line.level), el("span", "text", line.message));
      log.append(row);
    }
    const parts: HTMLElement[] = [
      el("h3", undefined, `Steps (${state.steps.length})`),
      state.steps.length > 0 ? steps : el("p", "muted", "No finished steps yet."),
    ];
    if (state.attempts && state.attempts.length > 0)
      parts.push(el("h3", undefined, "Attempts"), attemptList(state.attempts));
    if (lines > 0) parts.push(el("h3", undefined, `Log (${lines})`), log);
    this.body.replaceChildren(...parts);
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** structuredContent as a two-column table; nested values as compact JSON. */
function table(data: Record<string, unknown>): HTMLTableElement {
  const t = el("table", "structured");
  for (const [key, value] of Object.entries(data)) {
    const row = t.insertRow();
    row.append(
      el("th", undefined, key),
      el("td", undefined, typeof value === "string" ? value : JSON.stringify(value)),
    );
  }
  return t;
}
