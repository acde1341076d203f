/** `external_job`'s submission policy, for its polling and its callback mode alike. */

/** A refused submission is retried at once by the step itself, without waiting for a job-wide retry. */
export const SUBMIT_POLICY = {
  retries: { limit: 3, delay: "1 second", backoff: "exponential" },
  timeout: "30 seconds",
} as const;
