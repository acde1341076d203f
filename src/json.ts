/**
 * JSON shapes every layer shares. A leaf: it imports nothing, so any folder may import it
 * without making a circle (src/streams and src/leases, which import no other folder, included).
 */

/** A JSON object as it arrives or leaves: its values still unknown. */
export type JsonObject = { [key: string]: unknown };

/** A plain object: not null, not an array. */
export const isRecord = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
