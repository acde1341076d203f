/**
 * How one run of a job ended: the input of the state machine's `endRun` (machine.ts), whichever
 * engine ran it (the job runner, a Workflow's report).
 */
import type { JsonObject } from "../../json";
import type { AskedQuestion } from "./questions";

export type RunOutcome =
  | { kind: "completed"; result: JsonObject }
  /** `statusMessage`: what the task says meanwhile, instead of "Waiting until …" (a run that only checks back later). */
  | { kind: "yielded"; wakeAt: number; reason?: string; statusMessage?: string }
  /** The job asked (`job.elicit`): the task waits for the answers with nothing running. */
  | { kind: "input"; questions: AskedQuestion[] }
  | { kind: "failed"; message: string; permanent: boolean }
  | { kind: "aborted" }
  /** The job fanned items out (fan-out/record-wait.ts) and waits, holding no run, until their results are in. */
  | { kind: "awaiting_fan_out"; message: string };
