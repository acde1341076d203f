/**
 * What a step stores: its value as JSON text of bounded size. A stored value is what every later
 * run sees, so the first run gets the same JSON back too (a Date comes back as a string).
 */
import { PermanentError } from "./context";

/** A stored step result must fit a Durable Object row (2 MB) with room to spare. */
export const MAX_STEP_BYTES = 1024 * 1024;

/** `value` as JSON text; a PermanentError naming `what` if it is not JSON or larger than `max`. */
export function storedJsonText(what: string, value: unknown, verb = "returned", max = MAX_STEP_BYTES): string {
  let text: string;
  try {
    // JSON.stringify returns undefined for a bare function or symbol.
    text = (JSON.stringify(value ?? null) as string | undefined) ?? "null";
  } catch (error) {
    throw new PermanentError(
      `${what} ${verb} a value that is not JSON (${error instanceof Error ? error.message : String(error)}); use plain data.`,
    );
  }
  if (text.length > max) {
    throw new PermanentError(
      `${what} ${verb} ${text.length} bytes; it may be at most ${max}. Store large data elsewhere (R2, KV) and pass its key.`,
    );
  }
  return text;
}
