/**
 * `job.publish` over a JobHost: checks the pieces (zod, at the tool's edge), names the publish by
 * where it runs and what it holds (a replay reaches the same name, and the host records it once), and turns a refusal into a PartialLimitError the tool can catch.
 */
import { parseBlocks, type JobHost, type PartialBlock } from "../core";
import { PartialLimitError, PermanentError } from "./context";

export function publishFunction(
  host: JobHost,
  nextKey: (blocks: readonly PartialBlock[]) => { key: string; legacy?: string | undefined },
  throwIfAborted: () => void,
  /** Hears each publish the task holds: by its key, and whether an earlier run recorded it (journal-watch.ts). */
  saw?: (key: string, found: boolean) => void,
) {
  return async (...pieces: unknown[]): Promise<void> => {
    const parsed = parseBlocks(pieces);
    if (!parsed.ok) throw new PermanentError(`job.publish: ${parsed.message}.`);
    throwIfAborted();
    const { key, legacy } = nextKey(parsed.blocks);
    // Inline calls have no task to hold pieces: their output is the result alone.
    if (!host.publish) return;
    const outcome = host.publish(key, parsed.blocks, legacy);
    if (outcome.kind === "published" || outcome.kind === "duplicate") saw?.(key, outcome.kind === "duplicate");
    if (outcome.kind === "refused") throw new PartialLimitError(`job.publish: ${outcome.message}`);
  };
}
