/**
 * `batch_process`: one memoized step per item, so a crashed or resumed run continues
 * after the last finished item. Long items wait with durable sleep instead of holding a run.
 */
import { z } from "zod";
import { defineTool } from "./define";

/** Items longer than this are waited for durably (the run yields) rather than with a timer. */
const INLINE_ITEM_SECONDS = 5;

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
    const long = secondsPerItem > INLINE_ITEM_SECONDS;
    let checksum = 0;
    for (let item = 1; item <= items; item++) {
      checksum += await job.step(`item-${item}`, async () => {
        if (!long && secondsPerItem > 0) await job.sleep(secondsPerItem);
        return item * item;
      });
      if (long) await job.sleep(secondsPerItem, `processing item ${item + 1 <= items ? item + 1 : item} of ${items}`);
      await job.progress(item, items, `item ${item} of ${items} done`);
    }
    return {
      content: [{ type: "text", text: `Processed ${items} items.` }],
      structuredContent: { items, checksum },
    };
  },
});
