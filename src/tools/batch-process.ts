/**
 * `batch_process`: one memoized step per item, so a crashed or resumed run continues
 * after the last finished item and the event log records each finished item once.
 * Each item's simulated work is a `job.sleep` inside its step: short ones are timers,
 * long ones (30 s and more) end the run and the task's alarm resumes it, holding nothing.
 */
import * as z from "zod";
import { defineTool } from "./define";

export default defineTool({
  name: "batch_process",
  title: "Batch process",
  description: "Processes a batch of items, one checkpointed step per item, reporting progress after each.",
  inputSchema: z.object({
    items: z.number().int().min(1).max(1000).describe("How many items to process (1 to 1000)."),
    secondsPerItem: z.number().min(0).max(60).describe("Simulated work per item, in seconds (0 to 60)."),
  }),
  taskSupport: "optional",
  async run({ items, secondsPerItem }, job) {
    let checksum = 0;
    for (let item = 1; item <= items; item++) {
      checksum += await job.step(`item-${item}`, async () => {
        // The sleep is remembered by its place inside this step: a run resumed mid-item
        // waits only for what is left of it.
        if (secondsPerItem > 0) await job.sleep(secondsPerItem, `processing item ${item} of ${items}`);
        return item * item;
      });
      await job.progress(item, items, `item ${item} of ${items} done`);
    }
    return {
      content: [{ type: "text", text: `Processed ${items} items.` }],
      structuredContent: { items, checksum },
    };
  },
});
