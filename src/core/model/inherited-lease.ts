/**
 * A run lease found by a TaskObject instance that has just started. A Durable Object has one live
 * instance at a time, and only that instance's own runs take this lease (object/runs.ts); a new
 * instance has taken none, so a lease it finds was held by an earlier instance of itself, which is
 * gone (a deploy, a crash, a reset). That run cannot write again: an old instance that lingers
 * gets an exception at its next storage access (developers.cloudflare.com/durable-objects/platform/
 * known-issues/, "Global uniqueness"). So the lease ends now instead of at `leaseUntil`, and the
 * job resumes at once rather than `LEASE_MS` later. Leases held outside the object (a fanned-out
 * item's claim by a step consumer, which may still be alive) are not this lease and keep their wait.
 */
import type { TaskRecord } from "./record";
import { isTerminal } from "./record";
import { unchanged, type Transition } from "./transition";

/** The record with its run's lease ended at `now`; unchanged if no run holds one past `now`. */
export function endInheritedLease(record: TaskRecord, now: number): Transition {
  const { run } = record;
  if (isTerminal(record.status) || run.phase !== "running" || (run.leaseUntil ?? 0) <= now) return unchanged(record);
  // No event here: the recovery that follows logs the restart once (machine.ts, beginRun).
  return { record: { ...record, run: { ...run, leaseUntil: now } }, events: [] };
}
