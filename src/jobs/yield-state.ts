/**
 * Why a run ended early, as its JobContext records it: a yield, questions, or a wait for
 * fanned-out items. The JobContext and job.fanOut write it; the runner reads it after `run`.
 */
import type { AskedQuestion } from "../core";
import type { JobYield } from "./context";

/** Set when the run yielded, asked or waits for fanned-out items, even if the tool caught what we threw. */
export interface YieldState {
  yield?: JobYield;
  /** Questions asked in this run (several when a job asks with Promise.all). */
  questions?: AskedQuestion[];
  /** Set when the run ended to wait for fanned-out items: the task's statusMessage meanwhile. */
  fanOut?: { message: string };
}
