/**
 * `external_job` with `notify: "callback"`: the service is handed a callback URL and the job waits
 * durably, with nothing running and no polls, until the service POSTs `{ "outputUrl": "…" }` to it
 * (or the wait times out). The simulated service does not call back by itself: whoever plays the
 * service (a test, a person with curl) POSTs to the URL.
 */
import * as z from "zod";
import { PermanentError, type JobContext, type ToolResult } from "mcp-task-worker";
import { SUBMIT_POLICY } from "./submit-policy";
import { submitExternalJob, type ExternalScenario } from "./fake-external-service";

/** What the service POSTs when its job is done. */
const DoneSchema = z.object({ outputUrl: z.string().min(1).max(2000) });

/** The service gets its job's duration and five minutes more to call back. */
const SLACK_SECONDS = 300;

export async function byCallback(
  job: JobContext,
  durationSeconds: number,
  simulate: ExternalScenario,
): Promise<ToolResult> {
  // Opened before the submission, so its URL can go with it; a replay gets the same URL back.
  const callback = await job.callback("finished", { timeout: durationSeconds + SLACK_SECONDS });
  const ticket = await job.step("submit", SUBMIT_POLICY, ({ idempotencyKey, attempt }) =>
    submitExternalJob(durationSeconds, simulate, { idempotencyKey, attempt }),
  );
  const done = await callback.wait();
  if (done.status === "timed_out") {
    throw new PermanentError(
      `External job ${ticket.jobId} did not call back within ${durationSeconds + SLACK_SECONDS} s; its callback URL has expired.`,
    );
  }
  const body = DoneSchema.safeParse(done.body);
  if (!body.success) {
    throw new PermanentError(
      `External job ${ticket.jobId} called back with a body the tool cannot read; it needs {"outputUrl": "..."}.`,
    );
  }
  await job.progress(100, 100, "external job finished");
  return {
    content: [
      { type: "text", text: `External job ${ticket.jobId} finished; its output is at ${body.data.outputUrl}.` },
    ],
    structuredContent: { jobId: ticket.jobId, outputUrl: body.data.outputUrl, polls: 0 },
  };
}
