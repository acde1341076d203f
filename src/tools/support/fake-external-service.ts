/**
 * A stand-in for an external batch service (a cloud transcoder, an ML training API):
 * you submit work, get a ticket, and poll until it is done. It is deterministic and
 * runs in the Worker: a job's state is computed from its ticket (submit time and
 * duration) and the clock, so the `external_job` example needs no network or state.
 */

/** How the fake service behaves, so the example can show retries and permanent failures. */
export type ExternalScenario = "succeed" | "flaky" | "outage" | "reject" | "busy" | "closed";

export interface ExternalTicket {
  jobId: string;
  submittedAt: number;
  durationSeconds: number;
  scenario: ExternalScenario;
}

export type ExternalStatus =
  | { state: "running"; percent: number }
  | { state: "succeeded"; outputUrl: string; finishedAt: number }
  | { state: "failed"; reason: string };

/** What a real client would see as a 503: a transient error worth retrying. */
export class ServiceUnavailableError extends Error {
  override readonly name = "ServiceUnavailableError";
}

/**
 * Submits a job. With an idempotency key (a step's), a repeat of the same submission names the same
 * job, as a real service's idempotency keys make it. `attempt` is the caller's attempt at it: the
 * "busy" service refuses the first with HTTP 429, the "closed" one every one.
 */
export function submitExternalJob(
  durationSeconds: number,
  scenario: ExternalScenario,
  { now = Date.now(), idempotencyKey, attempt = 1 }: { now?: number; idempotencyKey?: string; attempt?: number } = {},
): ExternalTicket {
  if (scenario === "closed" || (scenario === "busy" && attempt === 1)) {
    throw new ServiceUnavailableError("The external service refused the submission: HTTP 429, too many jobs queued.");
  }
  const jobId = `ext-${idempotencyKey ?? crypto.randomUUID()}`;
  return { jobId, submittedAt: now, durationSeconds, scenario };
}

/**
 * The job's state at `now`. `firstAttempt` says whether the caller is on its first run:
 * the "flaky" service fails only then, so a retry succeeds.
 */
export function pollExternalJob(
  ticket: ExternalTicket,
  { now = Date.now(), firstAttempt = false }: { now?: number; firstAttempt?: boolean } = {},
): ExternalStatus {
  if (ticket.scenario === "outage" || (ticket.scenario === "flaky" && firstAttempt)) {
    throw new ServiceUnavailableError(`The external service is unavailable (HTTP 503) while polling ${ticket.jobId}.`);
  }
  const elapsedMs = Math.max(0, now - ticket.submittedAt);
  const durationMs = ticket.durationSeconds * 1000;
  if (ticket.scenario === "reject" && elapsedMs >= durationMs / 2) {
    return { state: "failed", reason: `The external service rejected ${ticket.jobId}: its input was invalid.` };
  }
  if (elapsedMs >= durationMs) {
    return {
      state: "succeeded",
      outputUrl: `https://external.invalid/results/${ticket.jobId}`,
      finishedAt: ticket.submittedAt + durationMs,
    };
  }
  return { state: "running", percent: Math.floor((elapsedMs / durationMs) * 100) };
}
