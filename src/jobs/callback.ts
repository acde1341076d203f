/**
 * `job.callback(name, { timeout })`: a URL an outside system POSTs its JSON to when its work is
 * done, and a durable wait for it. The callback is opened once per task and name (a replay gets the
 * same URL); its body is kept whenever it arrives, so one that comes before the job waits is not lost.
 */
import type { JobHost } from "../core";
import { PermanentError } from "./context";
import type { DurableNames } from "./durable-names";
import type { JournalWatch } from "./journal-watch";
import { signCallback } from "./callback-signature";
import type { Callback, CallbackOptions } from "./callback-types";
import { durationMs } from "./step-policy";

/** A callback's name goes into its URL: kept to characters every router and proxy passes through alike. */
const CALLBACK_NAME = /^[\w .:-]{1,100}$/;

/** The most a callback may wait: a task's ttl ends it sooner anyway. */
const MAX_CALLBACK_TIMEOUT_MS = 30 * 86_400_000;

export interface CallbackDeps {
  host: JobHost;
  names: DurableNames;
  /** Waits until `at`; `long`: always by ending the run (job-context.ts). */
  waitUntil(at: number, reason: string, long: boolean): Promise<void>;
  watch?: JournalWatch;
  /** The key new callback URLs are signed with (callback-signature.ts); undefined: unsigned. */
  signingKey(): Promise<CryptoKey | undefined>;
}

export function callbackFunction({ host, names, waitUntil, watch, signingKey }: CallbackDeps) {
  return async (name: string, options: CallbackOptions): Promise<Callback> => {
    names.refuseWaitInJournaledStep("job.callback");
    if (typeof name !== "string" || !CALLBACK_NAME.test(name)) {
      throw new PermanentError(
        `job.callback needs a name of 1 to 100 letters, digits, spaces, "_", ".", ":" or "-", got ${JSON.stringify(name)}.`,
      );
    }
    const timeoutMs = durationMs(options?.timeout, `job.callback("${name}")'s timeout`);
    if (timeoutMs <= 0 || timeoutMs > MAX_CALLBACK_TIMEOUT_MS) {
      throw new PermanentError(`job.callback("${name}")'s timeout must be more than 0 and at most 30 days.`);
    }
    const port = host.callbacks;
    if (!port) {
      throw new PermanentError(
        "job.callback needs a task and the Worker's own address: set PUBLIC_URL to the URL this Worker is reached at (e.g. https://tasks.example.workers.dev). An inline call cannot wait for a callback.",
      );
    }
    const key = await signingKey();
    const opened = port.open(name, Date.now() + timeoutMs, key !== undefined);
    const { expiresAt, objectId, token } = opened;
    watch?.saw("callback", name, !opened.fresh, names.scopeName());
    // A callback opened signed whose key is gone since keeps its unsigned URL: what was handed out stays as it was.
    const url =
      opened.signed && key
        ? `${opened.url}/${expiresAt}/${await signCallback(key, { objectId, name, token, expiresAt })}`
        : opened.url;
    return {
      url,
      expiresAt: new Date(expiresAt).toISOString(),
      async wait() {
        for (;;) {
          const got = port.received(name);
          if (got) return { status: "received", body: got.body };
          if (Date.now() >= expiresAt) return { status: "timed_out" };
          // Ends the run: a POST wakes the task at once, the timeout at `expiresAt`.
          await waitUntil(expiresAt, `waiting for callback "${name}"`, true);
        }
      },
    };
  };
}
