/**
 * EventLogObject: the log of one event type for one principal (or for everyone, for types every
 * principal may see): its occurrences in order, the webhook subscriptions that read it and their
 * deliveries (run from its alarm, which survives crashes and deploys), and the waiters of the open
 * `events/stream`s. Its RPC methods are the Worker's only way in (event-logs.ts names each log).
 */
import { DurableObject } from "cloudflare:workers";
import { readSettings } from "../config";
import { servedEventTypes } from "./event-set";
import { deliverDue, terminate } from "./webhook-deliveries";
import { OccurrenceLog, type NewOccurrence } from "./occurrence-log";
import { readOccurrences, type ReadQuery, type ReadResult } from "./read";
import { StreamWaiters } from "./stream-waiters";
import { Subscriptions } from "./subscriptions";
import { upsertSubscription, type SubscribeInput, type SubscribeOutcome } from "./subscribe";

/** One alarm turn delivers for at most this long, then leaves the rest to the next turn. */
const TURN_BUDGET_MS = 20_000;
/** How soon after an append the alarm delivers it (it batches a burst of appends into one turn). */
const DELIVERY_DELAY_MS = 0;

// Its env is read for settings only (by name), so it takes any Worker's.
export class EventLogObject extends DurableObject<object> {
  private readonly log: OccurrenceLog;
  private readonly subscriptions: Subscriptions;
  private readonly waiters = new StreamWaiters();

  constructor(ctx: DurableObjectState, env: object) {
    super(ctx, env);
    this.log = new OccurrenceLog(ctx.storage.sql);
    this.subscriptions = new Subscriptions(ctx.storage.sql);
  }

  private get settings() {
    return readSettings(this.env);
  }

  /** Appends what is new (by eventId); wakes streams and schedules webhook deliveries. Returns how many were new. */
  async append(items: NewOccurrence[]): Promise<number> {
    const added = this.log.append(items);
    if (added.length === 0) return 0;
    this.waiters.wake();
    const { retentionMs } = this.settings.events;
    await this.schedule(this.subscriptions.count() > 0 ? Date.now() + DELIVERY_DELAY_MS : Date.now() + retentionMs);
    return added.length;
  }

  /** A page of occurrences for a poll or a stream (read.ts). */
  async read(query: ReadQuery): Promise<ReadResult> {
    return readOccurrences(this.log, servedEventTypes().find(query.name), query, Date.now());
  }

  /** Resolves true as soon as something is appended after `after`, false after `timeoutMs`. */
  waitAfter(after: number, timeoutMs: number): Promise<boolean> {
    if (this.log.lastSeq() > after) return Promise.resolve(true);
    return this.waiters.wait(timeoutMs);
  }

  /** Admits one more open stream of `principal` (at most `max`); false when at the limit. */
  openStream(principal: string, token: string, max: number): boolean {
    return this.waiters.open(principal, token, max);
  }

  closeStream(principal: string, token: string): void {
    this.waiters.close(principal, token);
  }

  async subscribe(input: SubscribeInput): Promise<SubscribeOutcome> {
    const outcome = await upsertSubscription(
      { log: this.log, subscriptions: this.subscriptions, policy: this.settings.webhooks },
      input,
      Date.now(),
    );
    if (outcome.kind === "subscribed") await this.schedule(Date.now());
    return outcome;
  }

  /** Removes the subscription; true when there was one. */
  unsubscribe(id: string, principal: string): boolean {
    const sub = this.subscriptions.get(id);
    return sub !== undefined && sub.principal === principal && this.subscriptions.remove(id);
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const { retentionMs, maxOccurrences } = this.settings.events;
    this.subscriptions.expire(now);
    this.log.prune(now - retentionMs, maxOccurrences);
    const type = servedEventTypes().find(this.log.typeName ?? "");
    const ctx = {
      log: this.log,
      subscriptions: this.subscriptions,
      type,
      policy: this.settings.webhooks,
      now: Date.now,
    };
    if (type === undefined && this.log.typeName !== undefined && this.subscriptions.count() > 0) {
      // The type was removed from this server: each subscriber is told, once, and its subscription ends.
      for (const sub of this.subscriptions.due(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 1000))
        await terminate(ctx, sub, {
          code: -32023,
          message: `The event type "${sub.name}" is no longer offered by this server.`,
          data: { kind: "event" },
        });
    }
    await deliverDue(ctx, TURN_BUDGET_MS);
    const lastSeq = this.log.lastSeq();
    const next = [
      this.subscriptions.nextRetryAt(lastSeq),
      this.subscriptions.nextExpiry(),
      (this.log.oldestAt() ?? Number.POSITIVE_INFINITY) + retentionMs,
    ].filter((at): at is number => at !== undefined && Number.isFinite(at));
    if (next.length > 0) await this.ctx.storage.setAlarm(Math.max(Date.now(), Math.min(...next)));
  }

  private async schedule(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}
