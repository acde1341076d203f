/**
 * Keeps the page current. New tasks: the first page of `GET /tasks` is read every poll interval
 * (no principal-level feed exists; one cheap indexed read per tab per interval, paused while the
 * tab is hidden). Running tasks: their event streams (`GET /tasks/{id}/events`), resumed with
 * `Last-Event-ID` after a drop. A browser holds at most 6 HTTP/1.1 connections per host (local
 * dev), so there at most MAX_STREAMS_H1 tasks stream and the others are polled a few per interval;
 * over HTTP/2 or 3 (a deployed Worker) streams share one connection and the cap is higher.
 */
import { AuthRequired, type Api } from "./api";
import { eventSeq, parseTaskEvent } from "./schema";
import { applyDocument, applyEvent, expired, isRunning, needsQuestions, pieceCursor, type TaskState } from "./state";
import { readSse, SseParser } from "./sse";
import type { TaskStore } from "./store";

export const MAX_STREAMS_H1 = 4;
export const MAX_STREAMS_MULTIPLEXED = 24;
/** Running tasks without a stream whose document is read per interval, in turn. */
const POLLS_PER_TICK = 3;
/** Task documents read at once (finished tasks' outcomes on first sight). */
const MAX_READS = 4;

export interface LiveEvents {
  authLost(error: AuthRequired): void;
  /** A problem to show (undefined: the last one is over). */
  problem(message: string | undefined): void;
  listed(principal: string, nextCursor: string | undefined, first: boolean): void;
}

export class Live {
  private readonly streams = new Map<string, AbortController>();
  private readonly reads = new Set<string>();
  /** Tasks whose details are open: streamed first, and read whole even when finished. */
  private readonly wanted = new Set<string>();
  private pollIntervalMs = 1000;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private turn = 0;
  private stopped = false;
  private listedOnce = false;
  /**
   * Which start() the work in flight belongs to: a list or read answered after a sign-out (or a
   * sign-in as someone else) is dropped, not shown (a loaded run saw a late list put the signed-out
   * principal's tasks back).
   */
  private session = 0;

  constructor(
    private readonly api: Api,
    private readonly store: TaskStore,
    private readonly events: LiveEvents,
    private readonly maxStreams: number,
  ) {}

  start(): void {
    this.session += 1;
    this.stopped = false;
    this.listedOnce = false;
    void this.tick(); // errors are reported inside
  }

  stop(): void {
    this.session += 1;
    this.stopped = true;
    clearTimeout(this.timer);
    for (const controller of this.streams.values()) controller.abort();
    this.streams.clear();
  }

  /** Looks again now (the tab became visible, a task was cancelled). */
  poke(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    void this.tick();
  }

  /** The details of a task were opened or closed. */
  want(taskId: string, open: boolean): void {
    if (open) this.wanted.add(taskId);
    else this.wanted.delete(taskId);
    this.reconcile();
  }

  streaming(taskId: string): boolean {
    return this.streams.has(taskId);
  }

  private async tick(): Promise<void> {
    const session = this.session;
    try {
      const page = await this.api.list();
      if (session !== this.session) return;
      if (page.pollInterval !== undefined) this.pollIntervalMs = Math.min(Math.max(page.pollInterval, 250), 60_000);
      this.store.merge(page.tasks);
      this.events.listed(page.principal, page.nextCursor, !this.listedOnce);
      this.listedOnce = true;
      this.events.problem(undefined);
    } catch (error) {
      if (session !== this.session || !this.fail(error)) return;
    }
    const now = Date.now();
    for (const state of this.store.all()) if (expired(state, now)) this.store.remove(state.taskId);
    this.reconcile();
    this.pollRunning();
    if (this.stopped) return;
    clearTimeout(this.timer);
    // Hidden tabs stop polling the list (streams go on); visibilitychange pokes on return.
    if (document.visibilityState !== "hidden") this.timer = setTimeout(() => void this.tick(), this.pollIntervalMs);
  }

  /** Reports an error; false when the page must stop (the token was refused). */
  private fail(error: unknown): boolean {
    if (error instanceof AuthRequired) {
      this.stop();
      this.events.authLost(error);
      return false;
    }
    if (!(error instanceof DOMException && error.name === "AbortError")) {
      this.events.problem(error instanceof Error ? error.message : String(error));
    }
    return true;
  }

  /** Fills free stream slots, and reads the outcome of finished tasks seen for the first time. */
  reconcile(): void {
    if (this.stopped) return;
    const tasks = this.store.all();
    const want = (t: TaskState) => this.wanted.has(t.taskId) && (isRunning(t) || !t.eventsRead);
    const candidates = [...tasks.filter(want), ...tasks.filter((t) => isRunning(t) && !want(t))];
    for (const state of candidates) {
      if (this.streams.size >= this.maxStreams) break;
      if (!this.streams.has(state.taskId)) this.openStream(state.taskId);
    }
    for (const state of tasks) {
      if (this.reads.size >= MAX_READS) break;
      // A finished task's outcome on first sight, and what a waiting task asks (its stream says only that it waits).
      if ((!isRunning(state) && !state.outcomeRead && !this.streams.has(state.taskId)) || needsQuestions(state))
        this.read(state.taskId);
    }
  }

  /** Running tasks that have no stream: a few documents per interval, in turn. */
  private pollRunning(): void {
    const unstreamed = this.store.all().filter((t) => isRunning(t) && !this.streams.has(t.taskId));
    for (let i = 0; i < Math.min(POLLS_PER_TICK, unstreamed.length); i++) {
      const state = unstreamed[(this.turn + i) % unstreamed.length];
      if (state) this.read(state.taskId);
    }
    this.turn += POLLS_PER_TICK;
  }

  private read(taskId: string): void {
    if (this.reads.has(taskId)) return;
    this.reads.add(taskId);
    const session = this.session;
    this.api
      .get(taskId, pieceCursor(this.store.get(taskId)))
      .then((doc) => {
        if (session !== this.session) return;
        if (doc) this.store.update(taskId, (state) => applyDocument(state, doc));
        else this.store.remove(taskId);
      })
      .catch((error: unknown) => session === this.session && this.fail(error))
      .finally(() => {
        this.reads.delete(taskId);
        this.reconcile();
      });
  }

  private openStream(taskId: string): void {
    const controller = new AbortController();
    this.streams.set(taskId, controller);
    this.follow(taskId, controller.signal)
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        if (this.streams.get(taskId) === controller) this.streams.delete(taskId);
        this.reconcile();
      });
  }

  /** One task's stream until the task has ended (or is gone), resuming after drops. */
  private async follow(taskId: string, signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      const state = this.store.get(taskId);
      if (!state || (!isRunning(state) && state.eventsRead)) return;
      const parser = new SseParser();
      try {
        const headers: Record<string, string> = { Accept: "text/event-stream" };
        if (state.lastSeq > 0) headers["Last-Event-ID"] = `t.${taskId}.0.${state.lastSeq}`;
        const response = await this.api.fetch(`/tasks/${taskId}/events`, { headers, signal });
        if (response.status === 404) return this.store.remove(taskId);
        if (response.status === 400) {
          // The resume point is unknown to the server: read the whole log again.
          this.store.update(taskId, (s) => ({ ...s, lastSeq: 0, steps: [], logs: [], logsDropped: 0 }));
          continue;
        }
        if (!response.ok || !response.body)
          throw new Error(`The event stream of task ${taskId} answered ${response.status}.`);
        if (state.lastSeq === 0) this.store.update(taskId, (s) => ({ ...s, eventsRead: true }));
        failures = 0;
        await readSse(
          response.body,
          (message) => {
            if (signal.aborted) return;
            const seq = eventSeq(message.id, taskId);
            const event = seq === undefined ? undefined : parseTaskEvent(message.event, message.data, seq);
            if (event) this.store.update(taskId, (s) => applyEvent(s, event));
            if (event?.type === "status" && event.task.status === "input_required") this.reconcile();
          },
          parser,
        );
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof AuthRequired) throw error;
        failures += 1;
      }
      const now = this.store.get(taskId);
      if (!now || !isRunning(now)) return;
      // Dropped while the task runs: come back after the server's retry hint, longer after failures.
      await sleep(Math.min((parser.retryMs ?? this.pollIntervalMs) * 2 ** Math.min(failures, 5), 30_000), signal);
    }
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
