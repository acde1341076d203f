/**
 * When a question first reached its client (docs/human-in-the-loop.md, "Who answered"): the floor
 * that tells a client's instant answer from a person's runs from that moment, not from the asking,
 * so a client that polls and first sees the question seconds later is still caught declining on sight.
 */
import { pendingInputs, type AskedInput, type TaskRecord } from "./record";

/**
 * `record` with `seenAt = now` on each pending question no reader has received yet; the same object
 * when there is none, so a caller writes only the first receipt (a poll after it costs no write).
 */
export function noteReceipt(record: TaskRecord, now: number): TaskRecord {
  const inputs = record.inputs;
  if (!inputs || record.status !== "input_required") return record;
  const unseen = Object.keys(pendingInputs(record)).filter((key) => inputs[key]?.seenAt === undefined);
  if (unseen.length === 0) return record;
  const next: Record<string, AskedInput> = { ...inputs };
  for (const key of unseen) {
    const asked = next[key];
    if (asked) next[key] = { ...asked, seenAt: now };
  }
  return { ...record, inputs: next };
}

/** The moment the answering client could first have read `asked`: its first receipt, else its asking. */
export const receivedAt = (asked: AskedInput): number => asked.seenAt ?? asked.askedAt;
