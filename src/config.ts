/**
 * Settings: wrangler vars/secrets with their documented defaults, parsed once per env object (the
 * Worker looks them up per request; see docs/settings.md). Every name here is listed there.
 */

export interface Settings {
  inlineWaitMs: number;
  defaultTtlMs: number;
  maxTtlMs: number;
  pollIntervalMs: number;
  jobMaxAttempts: number;
  jobRetryBaseSeconds: number;
  maxActiveTasksPerPrincipal: number;
  maxBodyBytes: number;
  /** Wall time one run may use before it yields and is resumed by a fresh alarm. */
  runSliceMs: number;
  /** A run whose heartbeat is older than this is presumed dead and restarted. */
  leaseMs: number;
  /**
   * If the queue has not delivered a created task by then, its own alarm starts it. The default 0
   * starts every task from its alarm at once (local queues batch for up to max_batch_timeout);
   * the queue message stays the durable at-least-once path and its delivery is then a duplicate.
   */
  dispatchGraceMs: number;
  /** Largest JSON size of one tool call's arguments. */
  maxArgumentBytes: number;
  /** "oauth" puts the OAuth 2.1 provider in front; anything else means API keys (or none). */
  authMode: "apikeys" | "oauth";
  /** API_KEYS is set or OAuth is on: requests must authenticate. */
  authConfigured: boolean;
  /** Serve anonymous requests on a non-loopback host too (no auth configured). */
  allowAnonymous: boolean;
  /** Browser origins allowed to call the server, besides its own origin ("*" for any). */
  allowedOrigins: string[];
  /** Extra Host names a loopback dev server answers to (a tunnel's name, say). */
  allowedHosts: string[];
  /** How often a quiet 2026-07-28 event stream (subscriptions/listen, a long call) sends a `: keepalive` comment. */
  keepaliveMs: number;
  /** Sustained requests per minute per principal; 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Requests a principal may make in a burst before the per-minute rate applies. */
  rateLimitBurst: number;
}

/** The Worker's env (or any object of vars), read by name: values may be missing or of any type. */
export type Vars = object;

export const readVar = (vars: Vars, name: string): unknown => Reflect.get(vars, name);

/** An integer setting: the fallback when unset or below `min`, at most `max`. */
export function intVar(vars: Vars, name: string, fallback: number, min = 0, max = Number.POSITIVE_INFINITY): number {
  const raw = readVar(vars, name);
  if (raw === undefined || raw === null || raw === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= min ? Math.min(Math.floor(n), max) : fallback;
}

/** A comma-separated list setting, blanks dropped. */
export function listVar(vars: Vars, name: string): string[] {
  const raw = readVar(vars, name);
  if (typeof raw !== "string") return [];
  return raw.split(",").map((item) => item.trim()).filter((item) => item !== "");
}

/** Settings are fixed for an env object's life (an isolate), so parse them once per env, not per request. */
const parsed = new WeakMap<object, Settings>();

export function readSettings(env: object): Settings {
  let settings = parsed.get(env);
  if (!settings) {
    settings = parseSettings(env);
    parsed.set(env, settings);
  }
  return settings;
}

function parseSettings(vars: Vars): Settings {
  const apiKeys = readVar(vars, "API_KEYS");
  const authMode = String(readVar(vars, "AUTH_MODE") ?? "").trim().toLowerCase() === "oauth" ? "oauth" : "apikeys";
  return {
    inlineWaitMs: intVar(vars, "INLINE_WAIT_MS", 10_000),
    defaultTtlMs: intVar(vars, "DEFAULT_TTL_MS", 24 * 3600_000, 1000),
    maxTtlMs: intVar(vars, "MAX_TTL_MS", 7 * 24 * 3600_000, 1000),
    pollIntervalMs: intVar(vars, "POLL_INTERVAL_MS", 1000, 100),
    jobMaxAttempts: intVar(vars, "JOB_MAX_ATTEMPTS", 3, 1),
    jobRetryBaseSeconds: intVar(vars, "JOB_RETRY_BASE_SECONDS", 2, 0),
    maxActiveTasksPerPrincipal: intVar(vars, "MAX_ACTIVE_TASKS_PER_PRINCIPAL", 200, 1),
    maxBodyBytes: intVar(vars, "MAX_BODY_BYTES", 1024 * 1024, 1024),
    runSliceMs: intVar(vars, "RUN_SLICE_MS", 5 * 60_000, 1000),
    leaseMs: intVar(vars, "LEASE_MS", 30_000, 1000),
    dispatchGraceMs: intVar(vars, "DISPATCH_GRACE_MS", 0, 0),
    maxArgumentBytes: intVar(vars, "MAX_ARGUMENT_BYTES", 64 * 1024, 256),
    authMode,
    authConfigured: authMode === "oauth" || (typeof apiKeys === "string" && apiKeys.trim() !== ""),
    allowAnonymous: String(readVar(vars, "ALLOW_ANONYMOUS") ?? "").trim().toLowerCase() === "true",
    allowedOrigins: listVar(vars, "ALLOWED_ORIGINS"),
    allowedHosts: listVar(vars, "ALLOWED_HOSTS").map((host) => host.toLowerCase()),
    keepaliveMs: intVar(vars, "KEEPALIVE_MS", 25_000, 100),
    rateLimitPerMinute: intVar(vars, "RATE_LIMIT_PER_MINUTE", 3000, 0),
    rateLimitBurst: intVar(vars, "RATE_LIMIT_BURST", 1000, 1),
  };
}

/** The settings every new task is created under (the state machine's inputs from configuration). */
export const taskPolicy = (settings: Settings) => ({
  defaultTtlMs: settings.defaultTtlMs,
  maxTtlMs: settings.maxTtlMs,
  pollIntervalMs: settings.pollIntervalMs,
  dispatchGraceMs: settings.dispatchGraceMs,
});
