/**
 * A task's fan-outs: the item transitions (items.ts) applied to their rows, and the
 * counts kept beside them. Synchronous, like all of the TaskObject's storage; what the changes
 * mean for the task (events, progress, waking the job) is the TaskObject's (host.ts).
 */
import {
  claimItem,
  completeItem,
  failItem,
  giveUpItem,
  renewItem,
  resendItem,
  type FailOutcome,
  type FanOutItem,
  type ItemPolicy,
} from "./items";
import type { FanOutHeader, FanOutStorage, ItemResult } from "./tables";

export interface FanOutRequest {
  key: string;
  step: string;
  /** Each item's input as JSON text. */
  inputs: readonly string[];
  settle: boolean;
  /** Report progress automatically, from where the task's progress stands now. */
  progress: boolean;
}

export type FanOutStatus =
  | { state: "pending"; finished: number; total: number }
  | { state: "finished"; items: ItemResult[] };

/** An item that reached its end just now: what the task's log and progress must show. */
export interface FinishedItem {
  header: FanOutHeader;
  index: number;
  ok: boolean;
  error?: string;
}

export interface ClaimedItem {
  index: number;
  attempt: number;
  input: string;
}

export interface ClaimBatch {
  step: string;
  claimed: ClaimedItem[];
  /** Done already, running elsewhere, or no longer wanted: acknowledge without running. */
  skipped: number[];
  finished: FinishedItem[];
}

export class FanOuts {
  constructor(
    private readonly storage: FanOutStorage,
    private readonly policy: ItemPolicy,
  ) {}

  status(key: string): FanOutStatus | undefined {
    const header = this.storage.header(key);
    if (!header) return undefined;
    const finished = header.done + header.failed;
    if (finished < header.total && !header.abandoned) return { state: "pending", finished, total: header.total };
    return { state: "finished", items: this.storage.results(key) };
  }

  /** Stores the fan-out and its items, due at once; the TaskObject's alarm sends them. */
  start(request: FanOutRequest, progressBase: number): void {
    const header: FanOutHeader = {
      key: request.key,
      step: request.step,
      total: request.inputs.length,
      done: 0,
      failed: 0,
      settle: request.settle,
      ...(request.progress && { progressBase }),
      abandoned: false,
    };
    this.storage.create(header, request.inputs);
  }

  header(key: string): FanOutHeader | undefined {
    return this.storage.header(key);
  }

  runningCount(key: string): number {
    return this.storage.runningCount(key);
  }

  claim(key: string, indexes: readonly number[], now: number): ClaimBatch | undefined {
    const header = this.storage.header(key);
    if (!header) return undefined;
    const batch: ClaimBatch = { step: header.step, claimed: [], skipped: [], finished: [] };
    for (const index of indexes) {
      const item = this.storage.item(key, index);
      if (!item || header.abandoned) {
        batch.skipped.push(index);
        continue;
      }
      const { item: next, outcome } = claimItem(item, this.policy, now);
      this.save(key, item, next);
      if (outcome === "run")
        batch.claimed.push({ index, attempt: next.claims, input: this.storage.input(key, index) ?? "null" });
      else batch.skipped.push(index);
      if (outcome === "lost") batch.finished.push(this.finish(header, next));
    }
    return batch;
  }

  /** Stores the first result of an item; undefined if it already had one (or is no longer wanted). */
  complete(key: string, index: number, value: string): FinishedItem | undefined {
    const header = this.storage.header(key);
    const item = this.storage.item(key, index);
    if (!header || !item || header.abandoned) return undefined;
    const next = completeItem(item);
    if (next === item) return undefined;
    this.storage.saveResult(key, index, value);
    this.save(key, item, next);
    return this.finish(header, next);
  }

  fail(
    key: string,
    index: number,
    message: string,
    permanent: boolean,
    now: number,
  ): { outcome: FailOutcome; finished?: FinishedItem } {
    const header = this.storage.header(key);
    const item = this.storage.item(key, index);
    if (!header || !item || header.abandoned) return { outcome: { kind: "ignored" } };
    const { item: next, outcome } = failItem(item, message, permanent, this.policy, now);
    this.save(key, item, next);
    return outcome.kind === "final" ? { outcome, finished: this.finish(header, next) } : { outcome };
  }

  /** The queue gave up on the item's message. */
  giveUp(key: string, index: number, message: string): FinishedItem | undefined {
    const header = this.storage.header(key);
    const item = this.storage.item(key, index);
    if (!header || !item || header.abandoned) return undefined;
    const next = giveUpItem(item, message);
    if (next === item) return undefined;
    this.save(key, item, next);
    return this.finish(header, next);
  }

  /** A consumer still runs these: extend their leases. Returns those it should stop (finished elsewhere, or abandoned). */
  heartbeat(key: string, indexes: readonly number[], now: number): number[] {
    const header = this.storage.header(key);
    if (!header || header.abandoned) return [...indexes];
    const stop: number[] = [];
    for (const index of indexes) {
      const item = this.storage.item(key, index);
      if (!item || item.state === "done" || item.state === "failed") {
        stop.push(index);
        continue;
      }
      this.save(key, item, renewItem(item, this.policy, now));
    }
    return stop;
  }

  /**
   * Items nothing was heard of by their due time (never sent yet, a lost message, a dead consumer):
   * marks them sent again and returns them; an item lost too often fails instead.
   */
  takeDue(now: number, limit: number): { send: { key: string; index: number }[]; finished: FinishedItem[] } {
    const send: { key: string; index: number }[] = [];
    const finished: FinishedItem[] = [];
    for (const { key, item } of this.storage.due(now, limit)) {
      const result = resendItem(item, this.policy, now);
      this.save(key, item, result.item);
      if (result.send) send.push({ key, index: item.index });
      else if (result.item.state === "failed") {
        const header = this.storage.header(key);
        if (header) finished.push(this.finish(header, result.item));
      }
    }
    return { send, finished };
  }

  nextCheckAt(): number | undefined {
    return this.storage.nextDueAt();
  }

  /** Whether the waiting job should run again: no fan-out it may wait for has items to come. */
  allIn(): boolean {
    return !this.storage.anyUnfinished();
  }

  private save(key: string, before: FanOutItem, after: FanOutItem): void {
    if (after !== before) this.storage.saveItem(key, after);
  }

  /** Counts the item's end in its fan-out; a failure without `settle` abandons the rest of it. */
  private finish(header: FanOutHeader, item: FanOutItem): FinishedItem {
    const ok = item.state === "done";
    if (ok) header.done += 1;
    else header.failed += 1;
    if (!ok && !header.settle) header.abandoned = true;
    this.storage.saveHeader(header);
    return { header: { ...header }, index: item.index, ok, ...(item.error !== undefined && { error: item.error }) };
  }
}
