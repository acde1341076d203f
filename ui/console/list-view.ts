/** The task list: one card per task, newest first, and the counts by status above it. */
import { Card, type CardActions } from "./card";
import { STATUSES, type TaskStatus } from "./schema";
import { newestFirst, type TaskState } from "./state";
import type { StoreListener } from "./store";

export class ListView implements StoreListener {
  private readonly cards = new Map<string, Card>();
  private readonly states = new Map<string, TaskState>();

  constructor(
    private readonly list: HTMLElement,
    private readonly counts: HTMLElement,
    private readonly empty: HTMLElement,
    private readonly actions: CardActions,
  ) {
    setInterval(() => this.tick(), 1000);
  }

  changed(state: TaskState): void {
    this.states.set(state.taskId, state);
    const card = this.cards.get(state.taskId);
    if (card) card.update(state);
    else this.insert(new Card(state, this.actions), state);
    this.renderCounts();
  }

  removed(taskId: string): void {
    this.cards.get(taskId)?.root.remove();
    this.cards.delete(taskId);
    this.states.delete(taskId);
    this.renderCounts();
  }

  card(taskId: string): Card | undefined {
    return this.cards.get(taskId);
  }

  /** At its place by age: new tasks go on top, older pages below. */
  private insert(card: Card, state: TaskState): void {
    this.cards.set(state.taskId, card);
    const before = [...this.states.values()]
      .filter((other) => other.taskId !== state.taskId && newestFirst(state, other) < 0 && this.cards.has(other.taskId))
      .sort(newestFirst)[0];
    const anchor = before ? this.cards.get(before.taskId)?.root : undefined;
    this.list.insertBefore(card.root, anchor ?? null);
  }

  private tick(): void {
    const now = Date.now();
    for (const card of this.cards.values()) card.tick(now);
  }

  private renderCounts(): void {
    const counts = new Map<TaskStatus, number>();
    for (const state of this.states.values()) counts.set(state.status, (counts.get(state.status) ?? 0) + 1);
    const chips = STATUSES.filter((status) => counts.has(status)).map((status) => {
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.dataset["status"] = status;
      chip.textContent = `${counts.get(status)} ${status === "working" ? "running" : status.replace("_", " ")}`;
      return chip;
    });
    this.counts.replaceChildren(...chips);
    this.empty.hidden = this.states.size > 0;
  }
}
