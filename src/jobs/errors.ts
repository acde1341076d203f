/** What a thrown error says, and whether a retry could fix it: one reading for the runner, steps and fanned-out items. */
import { PermanentError } from "./context";

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Errors a retry cannot fix: the tool said so, or its input does not parse. */
export const isPermanent = (error: unknown): boolean =>
  error instanceof PermanentError ||
  (error instanceof Error && (error.name === "PermanentError" || error.name === "ZodError"));
