/**
 * Every wrangler var and secret the Worker reads: its kind, its range or words, and its default, in
 * one table (docs/settings.md lists the same, and test/unit/settings-docs.test.ts holds them equal).
 */
import * as z from "zod";
import { base64Key, flag, httpUrl, list, oneOf, text, whole } from "./kinds";

/** One retry never waits longer than 12 h: within the Queues `delaySeconds` limit (limits page: 12 h, now 24 h). */
export const MAX_RETRY_DELAY_SECONDS = 12 * 3600;
/** The consumer's `max_retries` in wrangler.toml is 100 (the platform maximum), so attempts cannot exceed 101. */
export const MAX_ATTEMPTS_LIMIT = 100;
/** A throwing job (or fanned-out item) waits at most an hour between runs; a larger base would only be cut. */
export const MAX_JOB_RETRY_DELAY_SECONDS = 3600;
/** The most pieces of partial output a task may hold (PARTIAL_MAX_PIECES lowers it); a reader's `after` is capped here. */
export const MAX_PARTIAL_PIECES = 1000;
/** The default most bytes (UTF-8 JSON of the blocks) of a task's partial output (PARTIAL_MAX_BYTES). */
export const MAX_PARTIAL_BYTES = 256 * 1024;
/**
 * The most PARTIAL_MAX_BYTES may raise it to: a task document read without `after` carries every
 * piece, so this bounds one `GET /tasks/{id}` (and the piece store, which holds each piece twice).
 */
export const MOST_PARTIAL_BYTES = 1024 * 1024;
/**
 * A run is started by the task's alarm, and an alarm handler has 15 minutes of wall time
 * (developers.cloudflare.com/durable-objects/platform/limits/): a longer slice would be cut there.
 */
export const MAX_RUN_SLICE_MS = 15 * 60_000;
/** Cloudflare's request body limit on its smallest plans (100 MB): a larger cap could never be reached. */
export const MAX_REQUEST_BODY_BYTES = 100 * 1024 * 1024;

/** `*`, or an origin (`https://app.example`, `http://localhost:5173`), kept as the browser sends it. */
const origin = (item: string): string | undefined => {
  if (item === "*") return item;
  if (!URL.canParse(item)) return undefined;
  const url = new URL(item);
  const bare = item.toLowerCase().replace(/\/$/, "");
  return (url.protocol === "https:" || url.protocol === "http:") && url.origin === bare ? url.origin : undefined;
};
/** A host name (`tunnel.example`, `[::1]`), lower-case; no scheme, port or path. */
const hostName = (item: string): string | undefined =>
  /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i.test(item) ? item.toLowerCase() : undefined;
const port = (item: string): number | undefined => {
  const n = /^\d+$/.test(item) ? Number(item) : Number.NaN;
  return n >= 1 && n <= 65535 ? n : undefined;
};

export const VarsSchema = z.object({
  INLINE_WAIT_MS: whole(10_000, 0),
  DEFAULT_TTL_MS: whole(24 * 3600_000, 1000),
  MAX_TTL_MS: whole(7 * 24 * 3600_000, 1000),
  POLL_INTERVAL_MS: whole(1000, 100),
  JOB_MAX_ATTEMPTS: whole(3, 1),
  PARTIAL_MAX_PIECES: whole(MAX_PARTIAL_PIECES, 1, MAX_PARTIAL_PIECES),
  PARTIAL_MAX_BYTES: whole(MAX_PARTIAL_BYTES, 1024, MOST_PARTIAL_BYTES),
  JOB_RETRY_BASE_SECONDS: whole(2, 0, MAX_JOB_RETRY_DELAY_SECONDS),
  MAX_ACTIVE_TASKS_PER_PRINCIPAL: whole(200, 1),
  MAX_BODY_BYTES: whole(1024 * 1024, 1024, MAX_REQUEST_BODY_BYTES),
  RUN_SLICE_MS: whole(5 * 60_000, 1000, MAX_RUN_SLICE_MS),
  LEASE_MS: whole(30_000, 1000),
  DISPATCH_GRACE_MS: whole(0, 0),
  MAX_ARGUMENT_BYTES: whole(64 * 1024, 256),
  SESSION_IDLE_TTL_MS: whole(24 * 3600_000, 1000),
  API_KEYS: text(true),
  CALLER_KEY: base64Key(32),
  CALLER_KEY_PREVIOUS: base64Key(32),
  AUTH_MODE: oneOf(["apikeys", "oauth"]),
  OAUTH_IDENTITY_PROVIDER: oneOf(["stand-in", "github"]),
  GITHUB_CLIENT_ID: text(),
  GITHUB_CLIENT_SECRET: text(true),
  GITHUB_URL: httpUrl("https://github.com"),
  GITHUB_API_URL: httpUrl("https://api.github.com"),
  ALLOW_ANONYMOUS: flag(),
  ALLOWED_ORIGINS: list("`*`, or origins such as `https://app.example`, comma-separated", origin),
  ALLOWED_HOSTS: list("host names such as `tunnel.example`, comma-separated", hostName),
  KEEPALIVE_MS: whole(25_000, 100),
  RATE_LIMIT_PER_MINUTE: whole(3000, 0),
  RATE_LIMIT_BURST: whole(1000, 1),
  OAUTH_REGISTRATIONS_PER_MINUTE: whole(10, 0),
  WORKFLOW_CHECK_SECONDS: whole(60, 1),
  WORKFLOW_NUDGE: flag(),
  PERSON_FLOOR_MS: whole(1000, 0, 600_000),
  TRANSITION_LOG: oneOf(["lines", "batched"]),
  PUBLIC_URL: httpUrl(""),
  WEBHOOK_SECRET: text(true),
  WEBHOOK_ALLOW_LOOPBACK: flag(),
  WEBHOOK_ALLOWED_PORTS: list("port numbers from 1 to 65535, comma-separated", port),
  WEBHOOK_RETRY_BASE_SECONDS: whole(10, 0, MAX_RETRY_DELAY_SECONDS),
  WEBHOOK_MAX_ATTEMPTS: whole(14, 1, MAX_ATTEMPTS_LIMIT),
  EVENTS_RETENTION_MS: whole(24 * 3600_000, 1000),
  EVENTS_MAX_OCCURRENCES: whole(10_000, 1, 1_000_000),
  EVENTS_HEARTBEAT_MS: whole(15_000, 100, 30_000),
  EVENTS_SUBSCRIPTION_TTL_MS: whole(24 * 3600_000, 60_000, 30 * 24 * 3600_000),
  EVENTS_MAX_SUBSCRIPTIONS: whole(1000, 1, 100_000),
  EVENTS_MAX_STREAMS: whole(256, 1, 10_000),
});
export type Vars = z.infer<typeof VarsSchema>;

/** Each var's schema by its name (its doc: `settingDocs.get(schema)`). */
export const SETTING_SCHEMAS = new Map<string, z.ZodType>(Object.entries(VarsSchema.shape));
/** The vars' names, as the Worker's env is read by them (it holds bindings too). */
export const SETTING_NAMES = [...SETTING_SCHEMAS.keys()];
