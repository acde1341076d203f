/**
 * `build_report`: a job that is never quick, so it only runs as a task (taskSupport "required").
 * A client that cannot follow a task gets an error saying so, in a sentence for the model, instead of
 * a call that would time out: `-32601` in 2025-11-25 without `params.task`, `-32021` in 2026-07-28
 * without the Tasks extension (docs/model-facing.md).
 */
import * as z from "zod";
import { defineTool } from "mcp-task-worker";

export default defineTool({
  name: "build_report",
  title: "Build report",
  // The listing adds that it runs only as a task and needs a client that supports MCP tasks (protocol/instructions.ts).
  description: "Builds a report of the given number of pages, about a second per page, reporting progress per page.",
  inputSchema: z.object({ pages: z.number().int().min(1).max(500).describe("How many pages to build (1 to 500).") }),
  taskSupport: "required",
  async run({ pages }, job) {
    for (let page = 1; page <= pages; page++) {
      await job.step(`page-${page}`, () => job.sleep(1, `building page ${page} of ${pages}`));
      await job.progress(page, pages, `page ${page} of ${pages} built`);
    }
    return `Report of ${pages} pages built.`;
  },
});
