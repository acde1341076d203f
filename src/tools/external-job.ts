/**
 * `external_job`: hands work to an external service and polls it until done — the
 * pattern for cloud jobs that run for minutes or days. The submission is a memoized
 * step with a retry policy of its own and the step's idempotency key (a retry or resume never
 * submits twice), each poll is a step, and the wait between polls is a durable `job.sleep`, so
 * nothing runs while the service works.
 */
import * as z from "zod";
import { defineTool, PermanentError } from "mcp-task-worker";
import { byCallback } from "./support/external-job-callback";
import { SUBMIT_POLICY } from "./support/submit-policy";
import { pollExternalJob, submitExternalJob } from "./support/fake-external-service";

/** Poll often enough for a short job to finish promptly, at most once a minute by default. */
const defaultPollSeconds = (durationSeconds: number): number =>
  Math.min(60, Math.max(1, Math.ceil(durationSeconds / 10)));

export default defineTool({
  name: "external_job",
  title: "External job",
  description:
    "Submits work to a (simulated) external service and polls it until it finishes, waiting durably between polls. Use it to try jobs that take hours.",
  inputSchema: z.object({
    durationSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .describe("How long the external service takes, in seconds (1 to 86400)."),
    pollSeconds: z
      .number()
      .int()
      .min(1)
      .max(3600)
      .optional()
      .describe("Seconds between polls (1 to 3600; default a tenth of the duration, at most 60)."),
    simulate: z
      .enum(["succeed", "flaky", "outage", "reject", "busy", "closed"])
      .optional()
      .describe(
        'How the simulated service behaves: "succeed" (default), "flaky" (the first run\'s poll fails; the retry works), "outage" (every poll fails until retries run out), "reject" (the service fails the job: no retry), "busy" (the first submission is refused; the submit step\'s own retry works), "closed" (every submission is refused: the submit step gives up after 3 attempts).',
      ),
    notify: z
      .enum(["poll", "callback"])
      .optional()
      .describe(
        'How the tool learns the job finished: "poll" (default: poll, sleeping durably between polls) or "callback" (hand the service a callback URL, then wait durably for its POST of {"outputUrl": "..."}; needs PUBLIC_URL).',
      ),
  }),
  taskSupport: "optional",
  outputSchema: z.object({
    jobId: z.string().describe("The external service's job id."),
    outputUrl: z.string().describe("Where the external service put its output."),
    polls: z.number().int().describe("How many times the job was polled."),
  }),
  async run({ durationSeconds, pollSeconds, simulate = "succeed", notify = "poll" }, job) {
    if (notify === "callback") return byCallback(job, durationSeconds, simulate);
    const every = pollSeconds ?? defaultPollSeconds(durationSeconds);
    // The service's idempotency key is the step's: a retried or replayed submission names the same job.
    const ticket = await job.step("submit", SUBMIT_POLICY, ({ idempotencyKey, attempt }) =>
      submitExternalJob(durationSeconds, simulate, { idempotencyKey, attempt }),
    );
    for (let poll = 1; ; poll++) {
      // A thrown poll error (the service is down) is retried by the runner with backoff;
      // the submission above is not repeated.
      const status = await job.step(`poll-${poll}`, () => pollExternalJob(ticket, { firstAttempt: job.attempt === 1 }));
      if (status.state === "failed") throw new PermanentError(status.reason);
      if (status.state === "succeeded") {
        await job.progress(100, 100, "external job finished");
        return {
          content: [
            { type: "text", text: `External job ${ticket.jobId} finished; its output is at ${status.outputUrl}.` },
          ],
          structuredContent: { jobId: ticket.jobId, outputUrl: status.outputUrl, polls: poll },
        };
      }
      await job.progress(status.percent, 100, `external job ${status.percent}% done`);
      await job.sleep(every, `polling external job ${ticket.jobId} (${status.percent}% done)`);
    }
  },
});
