/**
 * What a thrown error says, and whether a retry could fix it: one reading for the runner, steps and
 * fanned-out items. Its words reach the task's status message and the model, so never a stack.
 */
import { PermanentError } from "./context";

/** A line of a V8 stack trace ("    at fn (file.js:1:2)"): a tool that throws `new Error(e.stack)` sends some. */
const STACK_FRAME = /^\s+at\s.+$/;

/** The error's words: its message without stack-frame lines, its name when it has no message. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    const words = error.message
      .split("\n")
      .filter((line) => !STACK_FRAME.test(line))
      .join("\n")
      .trim();
    return words === "" ? `${error.name} (with no message)` : words;
  }
  if (typeof error === "object" && error !== null) {
    // `throw { code: 503 }`: its JSON says more than "[object Object]".
    try {
      return `A non-Error value was thrown: ${JSON.stringify(error)}`;
    } catch {
      return "A non-Error value was thrown.";
    }
  }
  return String(error);
}

/** Errors a retry cannot fix: the tool said so, or its input does not parse. */
export const isPermanent = (error: unknown): boolean =>
  error instanceof PermanentError ||
  (error instanceof Error && (error.name === "PermanentError" || error.name === "ZodError"));
