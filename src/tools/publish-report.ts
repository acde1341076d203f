/**
 * `publish_report`: a tool whose calls run on a Cloudflare Workflow (publish-report-workflow.ts,
 * docs/workflows.md). It builds each page in its own step, asks whether to publish, and publishes.
 * The task follows the Workflow instance: progress, the question, the result, cancel.
 */
import * as z from "zod";
import { defineWorkflowTool } from "mcp-task-worker";

export const PublishReportInput = z.object({
  pages: z.number().int().min(1).max(50).describe("How many pages the report has (1 to 50)."),
});
export type PublishReportInput = z.infer<typeof PublishReportInput>;

export default defineWorkflowTool({
  name: "publish_report",
  title: "Publish report",
  description:
    "Builds a report of the given number of pages (about 0.3 s per page, with progress), asks a person whether to publish it, and publishes it on yes. Runs durably on a Cloudflare Workflow.",
  inputSchema: PublishReportInput,
  taskSupport: "optional",
  workflow: (env) => env.PUBLISH_REPORT,
});
