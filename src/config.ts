/**
 * Settings: every wrangler var and secret, parsed with zod at the edge into one typed `Settings`
 * (the vars' kinds, ranges and defaults: settings/vars.ts, as docs/settings.md lists them). A value
 * the table does not take is refused, named in `problems`, never guessed. Parsed once per env object.
 */
import { settingDocs } from "./settings/kinds";
import { SETTING_NAMES, SETTING_SCHEMAS, VarsSchema, type Vars } from "./settings/vars";

/** Webhook delivery (the WEBHOOK_* vars): registration checks, signing, retries. */
export interface WebhookSettings {
  /** `whsec_<base64>`; without it the server refuses webhook registrations (it could not sign them). */
  secret?: string;
  /** Allow plain `http` (and any port) to loopback addresses: local dev and tests only. */
  allowLoopback: boolean;
  /** Non-default ports a destination may use (WEBHOOK_ALLOWED_PORTS, comma-separated). */
  allowedPorts: number[];
  /** Delay before the first retry; each later retry doubles it (capped at MAX_RETRY_DELAY_SECONDS). */
  retryBaseSeconds: number;
  /** Delivery attempts per event, the first included. */
  maxAttempts: number;
}

/** The GitHub OAuth app of OAUTH_IDENTITY_PROVIDER=github (blank when unset; http/oauth-github.ts says what is missing). */
export interface GitHubSettings {
  clientId: string;
  clientSecret: string;
  /** https://github.com, or a GitHub Enterprise Server (or, in tests, a stand-in on loopback). */
  webUrl: string;
  /** https://api.github.com, or the Enterprise Server's /api/v3. */
  apiUrl: string;
}

/** The Events extension (the EVENTS_* vars, docs/events.md). */
export interface EventSettings {
  /** Occurrences older than this are pruned; a cursor behind them resumes with `truncated: true`. */
  retentionMs: number;
  /** The most occurrences one event log keeps (one event type of one principal, or of everyone). */
  maxOccurrences: number;
  /** How often a quiet `events/stream` sends its heartbeat. */
  heartbeatMs: number;
  /** A webhook subscription's ttl when the client names none (also the most it may ask for). */
  subscriptionTtlMs: number;
  /** Webhook subscriptions one principal may hold per event type. */
  maxSubscriptions: number;
  /** `events/stream` requests one principal may hold open per event type. */
  maxStreams: number;
}

export interface Settings {
  /** The Worker's own address (PUBLIC_URL), for URLs that outside systems call: a job's callbacks. */
  publicUrl?: string;
  inlineWaitMs: number;
  defaultTtlMs: number;
  maxTtlMs: number;
  pollIntervalMs: number;
  jobMaxAttempts: number;
  /** Partial output a task may hold (docs/partial-results.md): pieces and bytes. */
  partialMaxPieces: number;
  partialMaxBytes: number;
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
  /** An MCP session unused for this long is deleted. */
  sessionIdleTtlMs: number;
  /** "oauth" puts the OAuth 2.1 provider in front; "apikeys" (the default) means API keys (or none). */
  authMode: "apikeys" | "oauth";
  /** API_KEYS as set (`name:token` pairs, parsed by http/api-keys.ts); undefined when unset or blank. */
  apiKeys: string | undefined;
  /** API_KEYS is set or OAuth is on: requests must authenticate. */
  authConfigured: boolean;
  /** Who signs users in under AUTH_MODE=oauth: GitHub, or the loopback-only stand-in. */
  identityProvider: "github" | "stand-in";
  github: GitHubSettings;
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
  /** Dynamic client registrations (`/oauth/register`) per address per minute, as many at once; 0: no limit. */
  oauthRegistrationsPerMinute: number;
  /**
   * How often a Workflow-backed task checks on its running instance (reports wake it at once; the
   * check finds what no report can tell: a crash, a terminate from outside).
   */
  workflowCheckMs: number;
  /** Each check also nudges a running instance: only local emulation needs it (docs/workflows.md). */
  workflowNudge: boolean;
  /** A decline or cancel sooner than this after its question is the client's own (docs/human-in-the-loop.md). */
  personFloorMs: number;
  /** One console call per transition line, or the lines of one moment in one call (`npm run dev`). */
  transitionLog: "lines" | "batched";
  webhooks: WebhookSettings;
  events: EventSettings;
  /**
   * Vars set to a value this server does not accept, each naming the var and what it accepts; their
   * defaults stand in here, but the Worker refuses every request until they are fixed (http/app.ts).
   */
  problems: readonly string[];
}

export {
  MAX_ATTEMPTS_LIMIT,
  MAX_JOB_RETRY_DELAY_SECONDS,
  MAX_PARTIAL_BYTES,
  MAX_PARTIAL_PIECES,
  MAX_RETRY_DELAY_SECONDS,
} from "./settings/vars";

function toSettings(vars: Vars, problems: readonly string[]): Settings {
  const authMode = vars.AUTH_MODE;
  // Kept as set: http/api-keys.ts parses the pairs (and says what is wrong with them).
  const apiKeys = vars.API_KEYS !== undefined && vars.API_KEYS.trim() !== "" ? vars.API_KEYS : undefined;
  const webhooks: WebhookSettings = {
    ...(vars.WEBHOOK_SECRET !== undefined && { secret: vars.WEBHOOK_SECRET }),
    allowLoopback: vars.WEBHOOK_ALLOW_LOOPBACK,
    allowedPorts: vars.WEBHOOK_ALLOWED_PORTS,
    retryBaseSeconds: vars.WEBHOOK_RETRY_BASE_SECONDS,
    maxAttempts: vars.WEBHOOK_MAX_ATTEMPTS,
  };
  const github: GitHubSettings = {
    clientId: vars.GITHUB_CLIENT_ID?.trim() ?? "",
    clientSecret: vars.GITHUB_CLIENT_SECRET?.trim() ?? "",
    webUrl: vars.GITHUB_URL,
    apiUrl: vars.GITHUB_API_URL,
  };
  return {
    inlineWaitMs: vars.INLINE_WAIT_MS,
    defaultTtlMs: vars.DEFAULT_TTL_MS,
    maxTtlMs: vars.MAX_TTL_MS,
    pollIntervalMs: vars.POLL_INTERVAL_MS,
    jobMaxAttempts: vars.JOB_MAX_ATTEMPTS,
    partialMaxPieces: vars.PARTIAL_MAX_PIECES,
    partialMaxBytes: vars.PARTIAL_MAX_BYTES,
    jobRetryBaseSeconds: vars.JOB_RETRY_BASE_SECONDS,
    maxActiveTasksPerPrincipal: vars.MAX_ACTIVE_TASKS_PER_PRINCIPAL,
    maxBodyBytes: vars.MAX_BODY_BYTES,
    runSliceMs: vars.RUN_SLICE_MS,
    leaseMs: vars.LEASE_MS,
    dispatchGraceMs: vars.DISPATCH_GRACE_MS,
    maxArgumentBytes: vars.MAX_ARGUMENT_BYTES,
    sessionIdleTtlMs: vars.SESSION_IDLE_TTL_MS,
    authMode,
    apiKeys,
    authConfigured: authMode === "oauth" || apiKeys !== undefined,
    identityProvider: vars.OAUTH_IDENTITY_PROVIDER,
    github,
    allowAnonymous: vars.ALLOW_ANONYMOUS,
    allowedOrigins: vars.ALLOWED_ORIGINS,
    allowedHosts: vars.ALLOWED_HOSTS,
    keepaliveMs: vars.KEEPALIVE_MS,
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE,
    rateLimitBurst: vars.RATE_LIMIT_BURST,
    oauthRegistrationsPerMinute: vars.OAUTH_REGISTRATIONS_PER_MINUTE,
    workflowCheckMs: vars.WORKFLOW_CHECK_SECONDS * 1000,
    workflowNudge: vars.WORKFLOW_NUDGE,
    personFloorMs: vars.PERSON_FLOOR_MS,
    transitionLog: vars.TRANSITION_LOG,
    ...(vars.PUBLIC_URL !== "" && { publicUrl: vars.PUBLIC_URL }),
    webhooks,
    events: {
      retentionMs: vars.EVENTS_RETENTION_MS,
      maxOccurrences: vars.EVENTS_MAX_OCCURRENCES,
      heartbeatMs: vars.EVENTS_HEARTBEAT_MS,
      subscriptionTtlMs: vars.EVENTS_SUBSCRIPTION_TTL_MS,
      maxSubscriptions: vars.EVENTS_MAX_SUBSCRIPTIONS,
      maxStreams: vars.EVENTS_MAX_STREAMS,
    },
    problems,
  };
}

/** Settings are fixed for an env object's life (an isolate), so parse them once per env, not per request. */
const parsed = new WeakMap<object, Settings>();

/** How a refused value is repeated: as written (quoted if text), cut short; a secret's never. */
const MAX_SHOWN = 40;
function shown(name: string, value: unknown): string {
  const schema = SETTING_SCHEMAS.get(name);
  if (schema === undefined || settingDocs.get(schema)?.secret) return "set to a value";
  const written = typeof value === "string" ? JSON.stringify(value) : String(value);
  return written.length > MAX_SHOWN ? `${written.slice(0, MAX_SHOWN - 1)}…` : written;
}

/** An env's vars as the table reads them, and each one it refuses, in words ("NAME is …, but must be …"). */
interface VarsRead {
  vars: Vars;
  refused: string[];
  /** The setting each line of `refused` names, in the same order. */
  refusedNames: string[];
}

/** Where a refused value is fixed: a secret is put again with wrangler, a var edited where it is set. */
const fixOf = (name: string): string => {
  const schema = SETTING_SCHEMAS.get(name);
  return schema !== undefined && settingDocs.get(schema)?.secret
    ? `put a new one with \`wrangler secret put ${name}\` (for wrangler dev: .dev.vars or --var).`
    : "fix it in wrangler.toml [vars], .dev.vars or --var.";
};

/**
 * Reads every setting of `env` (any object of vars: values may be missing or of any type), each
 * refused one named and read as unset. No log and no cache: `npm run check-settings`
 * (scripts/check-settings/) says the same as the Worker's 503 without serving.
 */
export function readVars(env: object): VarsRead {
  // Read by name (the env holds bindings too).
  const vars: Record<string, unknown> = Object.fromEntries(SETTING_NAMES.map((name) => [name, Reflect.get(env, name)]));
  const first = VarsSchema.safeParse(vars);
  if (first.success) return { vars: first.data, refused: [], refusedNames: [] };
  const refused: string[] = [];
  const refusedNames: string[] = [];
  for (const issue of first.error.issues) {
    const name = String(issue.path[0]);
    refused.push(`${name} is ${shown(name, vars[name])}, but must be ${issue.message}`);
    refusedNames.push(name);
    vars[name] = undefined;
  }
  // With the refused vars unset, every field parses (to its default): `refused` keeps the requests out.
  return { vars: VarsSchema.parse(vars), refused, refusedNames };
}

/** The settings of the Worker's env (or any object of vars: values may be missing or of any type). */
export function readSettings(env: object): Settings {
  let settings = parsed.get(env);
  if (!settings) {
    const { vars, refused, refusedNames } = readVars(env);
    for (const line of refused) console.error(`setting refused: ${line}`);
    const problems = refused.map((line, i) => `${line}; ${fixOf(refusedNames[i] ?? "")}`);
    settings = toSettings(vars, problems);
    parsed.set(env, settings);
  }
  return settings;
}

/** The settings every new task is created under (the state machine's inputs from configuration). */
export const taskPolicy = (settings: Settings) => ({
  defaultTtlMs: settings.defaultTtlMs,
  maxTtlMs: settings.maxTtlMs,
  pollIntervalMs: settings.pollIntervalMs,
  dispatchGraceMs: settings.dispatchGraceMs,
});
