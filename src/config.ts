/**
 * Settings: wrangler vars/secrets read once per request with their documented defaults.
 * Every name here is part of the public contract and listed in the README.
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
  /** If the queue has not delivered a created task by then, its own alarm starts it. */
  dispatchGraceMs: number;
}

type Vars = Partial<Record<string, unknown>>;

function intVar(vars: Vars, name: string, fallback: number, min = 0): number {
  const raw = vars[name];
  if (raw === undefined || raw === null || raw === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= min ? Math.floor(n) : fallback;
}

export function readSettings(env: object): Settings {
  const vars = env as Vars;
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
    dispatchGraceMs: intVar(vars, "DISPATCH_GRACE_MS", 15_000, 100),
  };
}
