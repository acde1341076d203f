/** `countdown`: one progress notification per second, stops at once on cancel. */
import * as z from "zod";
import { defineTool } from "mcp-task-worker";

export default defineTool({
  name: "countdown",
  title: "Countdown",
  description:
    "Counts down the given number of seconds, reporting progress every second. Use it to try long-running tasks.",
  inputSchema: z.object({
    seconds: z.number().int().min(1).max(86_400).describe("How long to count, in seconds (1 to 86400)."),
  }),
  taskSupport: "optional",
  async run({ seconds }, job) {
    // The start time is memoized, so a resumed run keeps the original schedule and
    // the progress values it already reported are dropped as repeats.
    const startedAt = await job.step("started", () => Date.now());
    for (let elapsed = 1; elapsed <= seconds; elapsed++) {
      await job.sleepUntil(startedAt + elapsed * 1000);
      await job.progress(elapsed, seconds, `${seconds - elapsed} s left`);
    }
    return `Countdown of ${seconds} s finished.`;
  },
});
