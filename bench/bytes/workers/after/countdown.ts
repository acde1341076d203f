/** The durable `countdown` of ../before's plain one, shared by ./index.ts and ../events. */
import { defineTool } from "mcp-task-worker/agents";
import * as z from "zod";

export const countdown = defineTool({
  name: "countdown",
  description: "Counts down the given number of seconds, reporting progress every second.",
  inputSchema: { seconds: z.number().int().min(1).max(86_400) },
  taskSupport: "optional",
  async run({ seconds }, job) {
    const startedAt = await job.step("started", () => Date.now());
    for (let elapsed = 1; elapsed <= seconds; elapsed++) {
      await job.sleepUntil(startedAt + elapsed * 1000);
      await job.progress(elapsed, seconds, `${seconds - elapsed} s left`);
    }
    return `Countdown of ${seconds} s finished.`;
  },
});
