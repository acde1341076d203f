/**
 * Partial results, the rules: whether pieces fit a task's limits, and the record and events once
 * they are recorded (numbered after those held). Pure: no I/O, no clock. The shapes: partial-types.ts.
 */
import { plainText } from "./plain-text";
import {
  MAX_PARTIAL_PIECES,
  NEWEST_KEPT,
  pieceBytes,
  pieceWords,
  type PartialBlock,
  type PartialLimits,
  type PartialPiece,
  type PartialSummary,
} from "./partial-types";
import type { TaskRecord } from "./record";
import type { Transition } from "./transition";

export * from "./partial-types";

/** Why `blocks` cannot be added to what `record` holds, in words for the tool; undefined if they fit. */
export function partialLimitProblem(
  record: TaskRecord,
  blocks: readonly PartialBlock[],
  limits: PartialLimits,
): string | undefined {
  const maxPieces = Math.min(limits.maxPieces, MAX_PARTIAL_PIECES);
  const held = record.partial ?? { pieces: 0, bytes: 0 };
  const bytes = blocks.reduce((sum, block) => sum + pieceBytes(block), 0);
  if (held.pieces + blocks.length > maxPieces) {
    return (
      `The task already holds ${held.pieces} partial results, and a task holds at most ${maxPieces}; ` +
      "nothing more was published. Publish fewer, larger pieces, or put the rest in the final result."
    );
  }
  if (held.bytes + bytes > limits.maxBytes) {
    return (
      `The task's partial results would pass ${limits.maxBytes} bytes (it holds ${held.bytes}); nothing more ` +
      "was published. Publish a resource_link to the data instead, or put the rest in the final result."
    );
  }
  return undefined;
}

/** The summary once `piece` is added (a reader folding the events does the same as the record). */
export function withPiece(summary: PartialSummary | undefined, piece: PartialPiece): PartialSummary {
  const held = summary ?? { pieces: 0, bytes: 0, newest: [] };
  const newest = [...held.newest, { n: piece.n, text: plainText(pieceWords(piece.content)) }].slice(-NEWEST_KEPT);
  const bytes = held.bytes + pieceBytes(piece.content);
  return { pieces: Math.max(held.pieces, piece.n), bytes, newest };
}

/** The record and events after `blocks` are recorded as the next pieces (numbered after those held). */
export function recordPartial(
  record: TaskRecord,
  blocks: readonly PartialBlock[],
): Transition & { pieces: PartialPiece[] } {
  const first = (record.partial?.pieces ?? 0) + 1;
  const pieces = blocks.map((block, i): PartialPiece => ({ n: first + i, content: block }));
  const partial = pieces.reduce<PartialSummary | undefined>(withPiece, record.partial);
  const events = pieces.map((piece) => ({ type: "partial" as const, data: piece }));
  return { record: { ...record, ...(partial && { partial }) }, events, pieces };
}
