/**
 * Publishing and reading a task's partial output inside its TaskObject (model/partial.ts). A
 * publish is recorded once per key: the key's marker, each piece and the record's new summary are
 * written with the `partial` events in one synchronous turn, so a replayed run's repeat of the same
 * key finds the marker and records nothing, and a crash keeps either all of a publish or none of it.
 */
import {
  MAX_PARTIAL_PIECES,
  parseBlocks,
  PartialBlockSchema,
  partialLimitProblem,
  recordPartial,
  type PartialBlock,
  type PartialLimits,
  type PartialPiece,
  type PublishOutcome,
} from "../model/partial";
import type { Transition } from "../model/transition";
import { isTerminal, type TaskRecord } from "../model/record";
import type { TaskStorage } from "./storage";

export type { PublishOutcome };

export interface PublishDeps {
  storage: TaskStorage;
  limits: PartialLimits;
  /** Saves the record and appends its events in this turn (TaskCommits.commit: what follows may come later). */
  commit(before: TaskRecord, transition: Transition): unknown;
}

export function publishPieces(
  deps: PublishDeps,
  key: string,
  blocks: readonly PartialBlock[],
  now: number,
  legacyKey?: string,
): PublishOutcome {
  const { storage, limits, commit } = deps;
  const record = storage.load();
  if (!record || isTerminal(record.status)) return { kind: "ended" };
  if (storage.memos.get("publishes", key)) return { kind: "duplicate" };
  // A task recorded by release 0.1 may have recorded this publish under 0.1's name (src/jobs/legacy-names.ts).
  if (legacyKey !== undefined && storage.memos.get("publishes", legacyKey)) return { kind: "duplicate" };
  const problem = partialLimitProblem(record, blocks, limits);
  if (problem !== undefined) return { kind: "refused", message: problem };
  const moved = recordPartial(record, blocks);
  storage.memos.put("publishes", key, { first: moved.pieces[0]?.n ?? 0, count: moved.pieces.length }, now);
  for (const piece of moved.pieces) storage.pieces.put(piece.n, piece.content, now);
  // Its storage writes are synchronous, in this turn; what follows them (readers, observers) is the commit's own.
  void commit(record, { record: moved.record, events: moved.events });
  return { kind: "published", pieces: moved.pieces };
}

/** The pieces numbered after `after`, in order, at most `limit` of them. */
export function readPieces(storage: TaskStorage, after: number, limit = MAX_PARTIAL_PIECES): PartialPiece[] {
  return storage.pieces.after(Math.max(0, Math.floor(after)), limit).flatMap(({ n, content }) => {
    // Only publishPieces writes pieces, so this is a check that never fails in practice.
    const block = PartialBlockSchema.safeParse(content);
    return block.success ? [{ n, content: block.data }] : [];
  });
}

/**
 * What a fanned-out item published (StepContext.publish), recorded with its result: each call's
 * blocks a publish of its own, keyed by the item and the call, so a retried or duplicated item's
 * pieces are recorded once, in the order items finish. 0.1's consumers sent one flat list of
 * blocks: one publish, under 0.1's key. Returns why the rest was not recorded, if a limit stopped it.
 */
export function publishItemPieces(deps: PublishDeps, fanOut: string, index: number, raw: unknown): string | undefined {
  const grouped = Array.isArray(raw) && raw.length > 0 && raw.every(Array.isArray);
  const groups: readonly unknown[] = grouped ? raw : [raw];
  for (const [call, group] of groups.entries()) {
    const parsed = parseBlocks(group);
    if (!parsed.ok) return `its partial output was not recorded from its publish ${call + 1} on: ${parsed.message}`;
    const key = grouped ? `item:${fanOut}/${index}#${call + 1}` : `item:${fanOut}/${index}`;
    const outcome = publishPieces(deps, key, parsed.blocks, Date.now());
    if (outcome.kind === "refused") return `its publish ${call + 1} and later were not recorded: ${outcome.message}`;
    if (outcome.kind === "ended") return undefined;
  }
  return undefined;
}
