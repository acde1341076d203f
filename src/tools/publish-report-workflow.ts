/**
 * The Workflow behind `publish_report` (declared under `[[workflows]]` in wrangler.toml): one
 * `step.do` per page (about 0.3 s each) reporting progress page/pages, a question ("Publish the
 * report of {pages} pages?", key `publish`, a boolean field `publish`), then the publishing in a
 * step of its own. Page building and publishing are simulated; the steps, question and answer are real.
 */
import { answeredOnItsOwn, askWhereAPersonCan, TaskWorkflow, type InputAnswer, type TaskLink } from "mcp-task-worker";
import { PublishReportInput } from "./publish-report";

const PAGE_MS = 300;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Why not, in words a model can relay; a decline or cancel too soon for a person is the client's own. */
function why(answer: InputAnswer, question: string): string {
  if (answer.action === "accept") return "the person chose not to publish it.";
  const goAhead = askWhereAPersonCan("publish_report", "publish");
  if (answer.automatic) return `${answeredOnItsOwn(answer, question)} ${goAhead}`;
  return answer.action === "decline" ? "the person declined." : "the question was cancelled.";
}

export class PublishReportWorkflow extends TaskWorkflow<PublishReportInput> {
  readonly input = PublishReportInput;

  async work({ pages }: PublishReportInput, task: TaskLink): Promise<string> {
    for (let page = 1; page <= pages; page++) {
      await task.step(`page ${page}`, async () => (await pause(PAGE_MS), page), {
        progress: { done: page, total: pages, message: `page ${page} of ${pages} built` },
        publish: `Page ${page} of ${pages} built.`,
      });
    }
    const question = `Publish the report of ${pages} pages?`;
    const answer = await task.ask("publish", {
      message: question,
      requestedSchema: {
        type: "object",
        properties: {
          publish: { type: "boolean", title: "Publish", description: `Publish the report of ${pages} pages.` },
        },
        required: ["publish"],
      },
    });
    const yes = answer.action === "accept" && answer.content?.["publish"] === true;
    if (!yes) return `Not published: ${why(answer, question)}`;
    await task.step("publish", async () => (await pause(PAGE_MS), true), {
      config: { retries: { limit: 2, delay: "1 second", backoff: "constant" } },
    });
    return `Published a report of ${pages} pages.`;
  }
}
