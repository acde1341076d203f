/**
 * Webhook subscriptions of one event log: a row each, keyed by the id derived from (principal,
 * callback URL, event name, canonical arguments). The row is the subscription's whole delivery
 * state: its watermark (every matching occurrence at or before it was delivered or skipped), the
 * attempt in progress, verification, suspension, and its secrets (the previous one kept while a
 * rotation signs with both).
 */
export type DeliveryError =
  | "connection_refused"
  | "timeout"
  | "tls_error"
  | "http_4xx"
  | "http_5xx"
  | "challenge_failed";

export interface Subscription {
  id: string;
  principal: string;
  name: string;
  /** Canonical JSON of the arguments. */
  args: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  /** Until then deliveries are signed with the previous secret too. */
  previousUntil: number | null;
  /** null: no expiry (ttlMs: null). */
  expiresAt: number | null;
  watermark: number;
  verified: boolean;
  active: boolean;
  attempts: number;
  nextAt: number;
  lastDeliveryAt: number | null;
  lastError: DeliveryError | null;
  failedSince: number | null;
  createdAt: number;
}

/** What a delivery changes: the rest of the row belongs to subscribe and refresh. */
export type DeliveryState = Pick<
  Subscription,
  "watermark" | "attempts" | "nextAt" | "lastDeliveryAt" | "lastError" | "failedSince" | "active"
>;

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  principal: string;
  name: string;
  args: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  expires_at: number | null;
  watermark: number;
  verified: number;
  active: number;
  attempts: number;
  next_at: number;
  last_delivery_at: number | null;
  last_error: string | null;
  failed_since: number | null;
  created_at: number;
}

const ERRORS: readonly string[] = [
  "connection_refused",
  "timeout",
  "tls_error",
  "http_4xx",
  "http_5xx",
  "challenge_failed",
];
const isDeliveryError = (value: string | null): value is DeliveryError => value !== null && ERRORS.includes(value);

const fromRow = (row: Row): Subscription => ({
  id: row.id,
  principal: row.principal,
  name: row.name,
  args: row.args,
  url: row.url,
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousUntil: row.previous_until,
  expiresAt: row.expires_at,
  watermark: row.watermark,
  verified: row.verified === 1,
  active: row.active === 1,
  attempts: row.attempts,
  nextAt: row.next_at,
  lastDeliveryAt: row.last_delivery_at,
  lastError: isDeliveryError(row.last_error) ? row.last_error : null,
  failedSince: row.failed_since,
  createdAt: row.created_at,
});

export class Subscriptions {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS subscriptions (
        id TEXT PRIMARY KEY, principal TEXT NOT NULL, name TEXT NOT NULL, args TEXT NOT NULL, url TEXT NOT NULL,
        secret TEXT NOT NULL, previous_secret TEXT, previous_until INTEGER, expires_at INTEGER,
        watermark INTEGER NOT NULL, verified INTEGER NOT NULL, active INTEGER NOT NULL, attempts INTEGER NOT NULL,
        next_at INTEGER NOT NULL, last_delivery_at INTEGER, last_error TEXT, failed_since INTEGER, created_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS subscriptions_by_principal ON subscriptions (principal);
    `);
  }

  get(id: string): Subscription | undefined {
    const row = this.sql.exec<Row>("SELECT * FROM subscriptions WHERE id = ?", id).toArray()[0];
    return row ? fromRow(row) : undefined;
  }

  countFor(principal: string): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM subscriptions WHERE principal = ?", principal).one()
      .n;
  }

  /** Another subscription of this principal already proved this URL answers challenges. */
  urlVerified(principal: string, url: string): boolean {
    return (
      this.sql
        .exec("SELECT 1 FROM subscriptions WHERE principal = ? AND url = ? AND verified = 1 LIMIT 1", principal, url)
        .toArray().length > 0
    );
  }

  put(sub: Subscription): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO subscriptions (id, principal, name, args, url, secret, previous_secret, previous_until,
        expires_at, watermark, verified, active, attempts, next_at, last_delivery_at, last_error, failed_since, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      sub.id,
      sub.principal,
      sub.name,
      sub.args,
      sub.url,
      sub.secret,
      sub.previousSecret,
      sub.previousUntil,
      sub.expiresAt,
      sub.watermark,
      sub.verified ? 1 : 0,
      sub.active ? 1 : 0,
      sub.attempts,
      sub.nextAt,
      sub.lastDeliveryAt,
      sub.lastError,
      sub.failedSince,
      sub.createdAt,
    );
  }

  /** Stores a delivery's outcome; false when the subscription was removed meanwhile. */
  record(id: string, state: DeliveryState): boolean {
    return (
      this.sql.exec(
        `UPDATE subscriptions SET watermark = ?, attempts = ?, next_at = ?, last_delivery_at = ?, last_error = ?,
          failed_since = ?, active = ? WHERE id = ?`,
        state.watermark,
        state.attempts,
        state.nextAt,
        state.lastDeliveryAt,
        state.lastError,
        state.failedSince,
        state.active ? 1 : 0,
        id,
      ).rowsWritten > 0
    );
  }

  remove(id: string): boolean {
    return this.sql.exec("DELETE FROM subscriptions WHERE id = ?", id).rowsWritten > 0;
  }

  /** Active subscriptions with something due by `now` (a delivery behind `lastSeq`, or a retry). */
  due(now: number, lastSeq: number, limit: number): Subscription[] {
    return this.sql
      .exec<Row>(
        "SELECT * FROM subscriptions WHERE active = 1 AND next_at <= ? AND (watermark < ? OR verified = 0) ORDER BY next_at LIMIT ?",
        now,
        lastSeq,
        limit,
      )
      .toArray()
      .map(fromRow);
  }

  /** When the next retry falls due, if any waits. */
  nextRetryAt(lastSeq: number): number | undefined {
    const at = this.sql
      .exec<{ at: number | null }>(
        "SELECT MIN(next_at) AS at FROM subscriptions WHERE active = 1 AND (watermark < ? OR verified = 0)",
        lastSeq,
      )
      .one().at;
    return at ?? undefined;
  }

  /** Removes subscriptions whose ttl passed; returns them. */
  expire(now: number): Subscription[] {
    return this.sql
      .exec<Row>("DELETE FROM subscriptions WHERE expires_at IS NOT NULL AND expires_at <= ? RETURNING *", now)
      .toArray()
      .map(fromRow);
  }

  nextExpiry(): number | undefined {
    return (
      this.sql.exec<{ at: number | null }>("SELECT MIN(expires_at) AS at FROM subscriptions").one().at ?? undefined
    );
  }

  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM subscriptions").one().n;
  }
}
