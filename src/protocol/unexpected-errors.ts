/**
 * An error no handler expected, in either era: logged with a reference, and answered in generic
 * words with that reference, never with its own message (which may tell a caller what the server
 * holds or can reach). The reference ties a user's report to the log line.
 */
import { ErrorCode, ProtocolError } from "./errors";

/** Logs `error` under `where` and returns the -32603 a client may read. */
export function unexpectedError(error: unknown, where: string, reference: string = crypto.randomUUID()): ProtocolError {
  console.error(`${where} failed unexpectedly (reference ${reference})`, error);
  const words = "the server failed unexpectedly. Try again; if it persists, report the reference.";
  return new ProtocolError(ErrorCode.InternalError, `Internal error (reference ${reference}): ${words}`);
}

/** `error` as a client may read it: a protocol error as thrown (its words are ours), anything else unexpectedError. */
export function answerableError(error: unknown, where: string): ProtocolError {
  return error instanceof ProtocolError ? error : unexpectedError(error, where);
}
