/**
 * Draws the card from its model: header (tool, status, Cancel), arguments, progress bar and
 * message, pending question, steps, log, result and a footer. Parts that hold what the
 * person is doing (the question form) or that rarely change (the result) are redrawn only
 * when their data changes.
 */
import { isTerminal, type Status } from "./data";
import type { CardModel } from "./follow";
import type { Answer } from "./question-form";
import { renderQuestion } from "./question-form";
import { el } from "../shared/dom";
import { cellText, renderResult } from "./result-view";

const STATUS_LABEL: Record<Status | "pending", string> = {
  pending: "Starting",
  working: "Running",
  input_required: "Needs input",
  completed: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
};

const SHOWN_STEPS = 5;
const MAX_ARGS = 6;

function byId(id: string): HTMLElement;
function byId<T extends HTMLElement>(id: string, type: new () => T): T;
function byId(id: string, type: new () => HTMLElement = HTMLElement): HTMLElement {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`The card's page lacks #${id}.`);
  return node;
}

export interface CardActions {
  canAct: boolean;
  cancel(): void;
  answer(key: string, answer: Answer): void;
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const clock = (iso: string): string =>
  new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

export class CardView {
  private readonly card = byId("card");
  private readonly bar = byId("bar", HTMLProgressElement);
  private readonly cancelButton = byId("cancel", HTMLButtonElement);
  private readonly question = byId("question", HTMLFormElement);
  private shownResult?: unknown;
  private shownQuestion?: string;

  constructor(private readonly actions: CardActions) {
    this.cancelButton.onclick = () => actions.cancel();
  }

  render(model: CardModel, now = Date.now()): void {
    const { task } = model;
    const status: Status | "pending" =
      task?.status ?? (model.result ? (model.result.isError ? "failed" : "completed") : "pending");
    const ended = status !== "pending" && isTerminal(status);
    this.card.dataset["status"] = status;
    if (task) this.card.dataset["taskId"] = task.taskId;
    byId("tool").textContent = model.tool ?? task?.tool ?? "Tool call";
    byId("status").textContent = STATUS_LABEL[status];

    this.cancelButton.hidden = !task || ended || !this.actions.canAct;
    this.cancelButton.disabled = model.busy !== undefined;
    this.cancelButton.textContent = model.busy === "cancel" ? "Cancelling…" : "Cancel";

    const args = Object.entries(model.args ?? {});
    byId("args").replaceChildren(
      ...args
        .slice(0, MAX_ARGS)
        .map(([key, value]) => el("span", { class: "arg", title: cellText(value) }, el("b", {}, key), cellText(value))),
    );
    byId("args").hidden = args.length === 0;

    this.renderProgress(model, status);
    const message = byId("message");
    message.textContent = (ended ? task?.statusMessage : task?.message) ?? "";
    message.hidden = !message.textContent || status === "completed";
    const notice = byId("notice");
    notice.textContent = model.notice ?? "";
    notice.hidden = !model.notice;

    this.renderQuestion(model);
    this.renderSteps(model);
    this.renderPartial(model);
    this.renderLogs(model);
    if (model.result !== this.shownResult || task?.error !== undefined) {
      this.shownResult = model.result;
      renderResult(byId("result"), model.result, task?.error);
    }
    const footer = byId("footer");
    if (task?.createdAt) {
      const end = ended && task.lastUpdatedAt ? Date.parse(task.lastUpdatedAt) : now;
      footer.replaceChildren(
        el("span", {}, "task ", el("code", { title: task.taskId }, `${task.taskId.slice(0, 8)}…`)),
        el("span", {}, `${ended ? "took" : "running for"} ${duration(end - Date.parse(task.createdAt))}`),
      );
    }
    footer.hidden = !task?.createdAt;
  }

  private renderProgress(model: CardModel, status: Status | "pending"): void {
    const task = model.task;
    const figure = byId("figure");
    if (status === "completed") {
      this.bar.max = 1;
      this.bar.value = 1;
      figure.textContent = task?.total !== undefined ? `${task.total} / ${task.total} · 100%` : "100%";
    } else if (task?.total !== undefined && task.total > 0) {
      this.bar.max = task.total;
      this.bar.value = Math.min(task.progress, task.total);
      figure.textContent = `${task.progress} / ${task.total} · ${Math.floor((100 * Math.min(task.progress, task.total)) / task.total)}%`;
    } else if (status === "working" || status === "pending" || status === "input_required") {
      this.bar.removeAttribute("value"); // indeterminate: the job reports no total
      figure.textContent = task && task.progress > 0 ? String(task.progress) : "";
    } else {
      this.bar.max = 1;
      this.bar.value = 0;
      figure.textContent = "";
    }
    this.bar.dataset["progress"] = String(task?.progress ?? 0);
  }

  private renderQuestion(model: CardModel): void {
    const pending =
      model.task?.status === "input_required"
        ? Object.entries(model.task.inputRequests ?? {}).find(([key]) => !model.answered.includes(key))
        : undefined;
    this.question.hidden = !pending || !this.actions.canAct;
    if (!pending) {
      this.shownQuestion = undefined;
      return;
    }
    const [key, request] = pending;
    const busy = model.busy !== undefined;
    // Redrawn only for a new question (or to lift the busy lock), so typing is never lost.
    const state = `${key}:${busy}`;
    if (this.shownQuestion === state) return;
    if (this.shownQuestion?.startsWith(`${key}:`)) {
      for (const button of this.question.querySelectorAll("button")) button.disabled = busy;
    } else {
      renderQuestion(this.question, key, request, busy, (k, answer) => this.actions.answer(k, answer));
    }
    this.shownQuestion = state;
  }

  private renderSteps(model: CardModel): void {
    const steps = byId("steps");
    steps.hidden = model.stepCount === 0;
    byId("step-count").textContent = `${model.stepCount} finished`;
    const shown = model.steps.slice(-SHOWN_STEPS);
    const items = shown.map((step) => el("li", { title: clock(step.at) }, step.name));
    if (model.stepCount > shown.length)
      items.unshift(el("li", { class: "more" }, `${model.stepCount - shown.length} earlier`));
    steps.querySelector("ol")?.replaceChildren(...items);
  }

  private renderPartial(model: CardModel): void {
    const output = byId("partial");
    output.hidden = model.partialCount === 0;
    byId("partial-count").textContent = `${model.partialCount} so far`;
    const items = model.partial.map((piece) =>
      el("li", { value: String(piece.n), title: clock(piece.at) }, piece.text),
    );
    output.querySelector("ol")?.replaceChildren(...items);
  }

  private renderLogs(model: CardModel): void {
    const logs = byId("logs");
    logs.hidden = model.logs.length === 0;
    byId("log-count").textContent = `last ${model.logs.length}`;
    const items = model.logs.map((line) =>
      el(
        "li",
        {},
        el("time", { datetime: line.at }, clock(line.at)),
        el("span", { class: `level level-${line.level}` }, line.level),
        el("span", { class: "text" }, line.message),
      ),
    );
    logs.querySelector("ol")?.replaceChildren(...items);
  }
}
