/**
 * The protocol eras this server speaks, keyed by version: which adapter serves a request that
 * names a version, which one answers the `initialize` handshake, and which one answers a version
 * nobody serves (the newest per-request era, whose error lists what is supported).
 */
import type { EraAdapter } from "./era";

export interface EraTable {
  /** The adapter serving `version`, if any does. */
  forVersion(version: string): EraAdapter | undefined;
  /** The session era: `initialize`, sessions, and requests that name no version. */
  readonly session: EraAdapter;
  /** The newest per-request era: answers a claimed version no row serves. */
  readonly newest: EraAdapter;
  /** Does `version` belong to an era that is named on every request? */
  isPerRequest(version: string | null): boolean;
  /** Every version served, newest era first. */
  readonly versions: readonly string[];
}

/** Builds the table; throws at startup if two rows claim one version or a kind of era is missing. */
export function eraTable(rows: readonly EraAdapter[]): EraTable {
  const byVersion = new Map<string, EraAdapter>();
  for (const era of rows) {
    for (const version of era.versions) {
      const taken = byVersion.get(version);
      if (taken)
        throw new Error(
          `Era table: ${version} is served by both ${taken.revision} and ${era.revision}; give it one row.`,
        );
      byVersion.set(version, era);
    }
  }
  const newestOf = (framing: EraAdapter["framing"]): EraAdapter => {
    const found = rows.filter((era) => era.framing === framing).sort((a, b) => b.revision.localeCompare(a.revision))[0];
    if (!found) throw new Error(`Era table: no ${framing} era; /mcp needs one of each kind.`);
    return found;
  };
  const session = newestOf("session");
  const newest = newestOf("per-request");
  return {
    forVersion: (version) => byVersion.get(version),
    session,
    newest,
    isPerRequest: (version) => version !== null && byVersion.get(version)?.framing === "per-request",
    versions: [...rows].sort((a, b) => b.revision.localeCompare(a.revision)).flatMap((era) => era.versions),
  };
}
