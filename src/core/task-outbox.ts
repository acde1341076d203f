/**
 * What a TaskObject sends elsewhere: its job's queue message, its fanned-out items' messages, and
 * its status changes and removal to the principal's index. The task's own record stays the source
 * of truth, so a failed index update or job message is logged, not thrown: the index may lag, and
 * the task's alarm starts a job whose message was lost.
 */
import { sendBatches, type StepMessage } from "./fan-out-message";
import { principalObjectName } from "./ids";
import type { JobMessage } from "./job-message";
import { toTaskView, type TaskRecord } from "./task-record";

export class TaskOutbox {
  constructor(private readonly env: Env) {}

  /** `started`: the job's run began in the object already (task-launch.ts), so the message only records the dispatch. */
  async enqueueJob(record: TaskRecord, started: boolean): Promise<void> {
    const message: JobMessage = { v: 1, principal: record.principal, taskId: record.taskId, ...(started && { started: true }) };
    try {
      await this.env.JOBS.send(message, { contentType: "json" });
    } catch (error) {
      console.error("enqueue failed; the task's alarm starts it", record.taskId, error);
    }
  }

  /** Items' messages to the step queue, in sendBatch calls within the queue's limits. Throws: the fan-out's alarm sends again. */
  async sendSteps(messages: StepMessage[]): Promise<void> {
    for (const chunk of sendBatches(messages)) {
      await this.env.STEPS.sendBatch(chunk.map((body): MessageSendRequest<StepMessage> => ({ body, contentType: "json" })));
    }
  }

  async updateIndex(record: TaskRecord): Promise<void> {
    try {
      await this.index(record).update(toTaskView(record));
    } catch (error) {
      console.error("task index update failed", record.taskId, error);
    }
  }

  async removeFromIndex(record: TaskRecord): Promise<void> {
    try {
      await this.index(record).remove(record.taskId);
    } catch (error) {
      console.error("task index removal failed", record.taskId, error);
    }
  }

  private index(record: TaskRecord) {
    return this.env.PRINCIPALS.getByName(principalObjectName(record.principal));
  }
}
