/**
 * Partial results, the shapes (a leaf: the record and the events import these): the pieces of
 * output a task publishes while it runs (docs/partial-results.md).
 * A piece is one content block (text or resource_link), numbered 1, 2, … in the order it was
 * recorded; the record keeps only a summary (how many, how many bytes, the newest in words), the
 * pieces themselves sit beside the job's steps and in the event log. Pure: no I/O, no clock.
 */
import * as z from "zod";

// The limits' bounds and defaults are the settings' own (PARTIAL_MAX_PIECES, PARTIAL_MAX_BYTES): one source.
export { MAX_PARTIAL_BYTES, MAX_PARTIAL_PIECES } from "../../config";

/** A task's limits (settings PARTIAL_MAX_PIECES, PARTIAL_MAX_BYTES); past them a publish is refused. */
export interface PartialLimits {
  maxPieces: number;
  maxBytes: number;
}
/** At most this many bytes in one piece. */
export const MAX_PIECE_BYTES = 16 * 1024;
/** How many of the newest pieces the record keeps in words (task_status, tasks/get `_meta`). */
export const NEWEST_KEPT = 3;
/** The words of a piece as the record keeps them: a short line, not the piece. */
const MAX_WORDS = 200;

const Text = z.string().min(1).max(MAX_PIECE_BYTES);
export const PartialBlockSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: Text }).strict(),
  z
    .object({
      type: z.literal("resource_link"),
      uri: z.url().max(2048),
      name: z.string().min(1).max(200),
      title: z.string().max(200).optional(),
      description: z.string().max(2000).optional(),
      mimeType: z.string().max(200).optional(),
    })
    .strict(),
]);
export type PartialBlock = z.infer<typeof PartialBlockSchema>;
/** One or more blocks, as a publisher hands them over: a string is a text block. */
export const PublishedSchema = z
  .array(z.union([Text, PartialBlockSchema]))
  .min(1)
  .max(100);

/** A piece as readers get it: its number and its content block. */
export interface PartialPiece {
  n: number;
  content: PartialBlock;
}

/** What the record keeps: the count, the bytes, and the newest pieces in words. */
export interface PartialSummary {
  pieces: number;
  bytes: number;
  newest: { n: number; text: string }[];
}

/** A piece in a line: its text, or a link's name and address. */
export function pieceWords(block: PartialBlock): string {
  const words = block.type === "text" ? block.text : `${block.title ?? block.name} (${block.uri})`;
  const line = words.replace(/\s+/g, " ").trim();
  return line.length > MAX_WORDS ? `${line.slice(0, MAX_WORDS - 1)}…` : line;
}

export const pieceBytes = (block: PartialBlock): number => new TextEncoder().encode(JSON.stringify(block)).length;

/** Blocks from a publisher, checked: strings become text blocks; the first problem, in words, otherwise. */
export function parseBlocks(raw: unknown): { ok: true; blocks: PartialBlock[] } | { ok: false; message: string } {
  const parsed = PublishedSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    const why = issue?.message ?? "invalid";
    const message = `publish takes 1 to 100 strings or content blocks (text, resource_link)${where}: ${why}`;
    return { ok: false, message };
  }
  const blocks = parsed.data.map(
    (item): PartialBlock => (typeof item === "string" ? { type: "text", text: item } : item),
  );
  const big = blocks.find((block) => pieceBytes(block) > MAX_PIECE_BYTES);
  if (big) {
    const message = `a piece is at most ${MAX_PIECE_BYTES} bytes; split it, or publish a resource_link to the data`;
    return { ok: false, message };
  }
  return { ok: true, blocks };
}

/** What became of a publish: recorded, a repeat of a recorded key, refused (a limit), or too late (the task ended). */
export type PublishOutcome =
  | { kind: "published"; pieces: PartialPiece[] }
  | { kind: "duplicate" }
  | { kind: "refused"; message: string }
  | { kind: "ended" };
