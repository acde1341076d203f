/** `echo`: a quick tool that never becomes a task (taskSupport "forbidden"). */
import * as z from "zod";
import { defineTool } from "mcp-task-worker";

export default defineTool({
  name: "echo",
  title: "Echo",
  description: "Returns the given text at once. A quick tool: it never runs as a task.",
  inputSchema: z.object({ text: z.string().max(10_000).describe("The text to return.") }),
  taskSupport: "forbidden",
  async run({ text }, job) {
    await job.log(`Echoing ${text.length} characters.`, "debug");
    return text;
  },
});
