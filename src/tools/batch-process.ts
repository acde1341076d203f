/**
 * `batch_process`: one memoized step per item, so a crashed or resumed run continues
 * after the last finished item and the event log records each finished item once.
 * Each item's simulated work is a `job.sleep` inside its step: short ones are timers,
 * long ones (30 s and more) end the run and the task's alarm resumes it, holding nothing.
 * With `parallel: true` the items are fanned out instead: each one a queue message, run by the
 * step consumer concurrently with the others, its result stored in the task (docs/fan-out.md).
 * Each finished item is published as partial output, `Item {n} of {items}: {n²}.` (docs/partial-results.md).
 */
import * as z from "zod";
import { defineStep, defineTool } from "mcp-task-worker";

/** One item's simulated work, run by the step queue's consumer when fanned out. */
export const processItem = defineStep({
  input: z.object({
    item: z.number().int().min(1),
    seconds: z.number().min(0).max(60),
    items: z.number().int().min(1).optional(),
  }),
  async run({ item, seconds, items }, ctx) {
    // A plain timer: the item is one consumer invocation, and the signal stops it on cancel.
    if (seconds > 0) await ctx.sleep(seconds);
    // Recorded with the item's result, so the pieces come in the order items finish.
    if (items !== undefined) await ctx.publish(`Item ${item} of ${items}: ${item * item}.`);
    return item * item;
  },
});

export default defineTool({
  name: "batch_process",
  title: "Batch process",
  description:
    "Processes a batch of items, one checkpointed step per item, reporting progress after each; with parallel, the items run at once on the queue.",
  inputSchema: z.object({
    items: z.number().int().min(1).max(1000).describe("How many items to process (1 to 1000)."),
    secondsPerItem: z.number().min(0).max(60).describe("Simulated work per item, in seconds (0 to 60)."),
    parallel: z
      .boolean()
      .optional()
      .describe("Fan the items out to run in parallel on the queue instead of one after another."),
  }),
  taskSupport: "optional",
  outputSchema: z.object({
    items: z.number().int().describe("Items processed."),
    checksum: z.number().describe("The sum of the items' squares."),
  }),
  steps: { processItem },
  async run({ items, secondsPerItem, parallel }, job) {
    let checksum = 0;
    if (parallel) {
      const inputs = Array.from({ length: items }, (_, i) => ({ item: i + 1, seconds: secondsPerItem, items }));
      for (const square of await job.fanOut(processItem, inputs)) checksum += square;
    } else {
      for (let item = 1; item <= items; item++) {
        checksum += await job.step(`item-${item}`, async () => {
          // The sleep is remembered by its place inside this step: a run resumed mid-item
          // waits only for what is left of it.
          if (secondsPerItem > 0) await job.sleep(secondsPerItem, `processing item ${item} of ${items}`);
          return item * item;
        });
        // After the step, not inside it: a replay skips a finished step's body, and this repeat is recorded once.
        await job.publish(`Item ${item} of ${items}: ${item * item}.`);
        await job.progress(item, items, `item ${item} of ${items} done`);
      }
    }
    return {
      content: [{ type: "text", text: `Processed ${items} items.` }],
      structuredContent: { items, checksum },
    };
  },
});
