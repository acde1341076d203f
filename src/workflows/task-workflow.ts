/**
 * The base class of a Workflow that backs a tool: write `work(input, task, step)` instead of
 * `run`. It finds the task the instance follows, checks the input with the tool's schema, and
 * leaves the work's result (or its error) in the task before the instance ends, so the task ends at
 * once rather than at its next check.
 *
 * @example
 * export class PublishReportWorkflow extends TaskWorkflow<PublishReportInput> {
 *   readonly input = PublishReportInput;
 *   async work({ pages }, task) {
 *     for (let page = 1; page <= pages; page++) await task.step(`page ${page}`, () => build(page), { done: page, total: pages });
 *     const answer = await task.ask("publish", { message: "Publish?", requestedSchema: { ... } });
 *     return answer.action === "accept" ? "Published." : "Not published: declined.";
 *   }
 * }
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import type * as z from "zod";
import { taskObjectName, type TaskObjectsEnv } from "../core";
import type { JsonObject } from "../json";
import { withSummary, type ToolResult } from "../jobs/context";
import { ERROR_NOTE, OUTPUT_NOTE, type TaskWorkflowParams } from "./names";
import { TaskLink } from "./task-link";

export abstract class TaskWorkflow<Input> extends WorkflowEntrypoint<
  TaskObjectsEnv & Cloudflare.Env,
  TaskWorkflowParams
> {
  /** The tool's input schema: the instance's input is checked again here, at its own boundary. */
  abstract readonly input: z.ZodType<Input>;

  /** The work. Its result becomes the task's result; a throw (after a step's retries) fails the task. */
  abstract work(input: Input, task: TaskLink, step: WorkflowStep): Promise<ToolResult | string>;

  override async run(event: Readonly<WorkflowEvent<TaskWorkflowParams>>, step: WorkflowStep): Promise<JsonObject> {
    const { principal, taskId } = event.payload;
    const stub = this.env.TASKS.getByName(taskObjectName(principal, taskId));
    const task = new TaskLink(stub, step);
    let result: JsonObject;
    try {
      result = { ...withSummary(await this.work(this.input.parse(event.payload.input), task, step)) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Best effort: the engine also reads the instance's error when it checks back.
      await step.do(
        "mcp: report the error",
        async () => (await stub.report({ note: { name: ERROR_NOTE, value: { message } }, wake: true })).state,
      );
      throw error;
    }
    await step.do(
      "mcp: report the result",
      async () => (await stub.report({ note: { name: OUTPUT_NOTE, value: result }, wake: true })).state,
    );
    return result;
  }
}
