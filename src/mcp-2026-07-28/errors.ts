/**
 * 2026-07-28's own errors: a JSON-RPC error plus the HTTP status the transport answers it with
 * (the shared kinds, and the answer that carries any of them, are in src/protocol/errors.ts).
 */
import { ErrorCode, HttpProtocolError } from "../protocol/errors";
import { SUPPORTED_VERSIONS, TASKS_EXTENSION } from "./protocol";

export function unsupportedVersion(requested: string): HttpProtocolError {
  const shown = requested.slice(0, 64);
  return new HttpProtocolError(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version "${shown}": this server speaks ${SUPPORTED_VERSIONS.join(", ")} (2025 versions through initialize).`,
    400,
    {
      supported: [...SUPPORTED_VERSIONS],
      requested: shown,
    },
  );
}

/** The request needs the Tasks extension the client did not declare (HTTP 400, `-32021`). */
export const tasksExtensionRequired = (why: string): HttpProtocolError =>
  new HttpProtocolError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${why} Declare "${TASKS_EXTENSION}" under _meta["io.modelcontextprotocol/clientCapabilities"].extensions.`,
    400,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );

/** A tool that only runs as a task, called without the extension: `-32021` whose message is a sentence for the model. */
export const taskOnlyTool = (sentence: string): HttpProtocolError =>
  new HttpProtocolError(ErrorCode.MissingRequiredClientCapability, sentence, 400, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });

export const methodNotFound = (method: string): HttpProtocolError =>
  new HttpProtocolError(
    ErrorCode.MethodNotFound,
    `Method not found: "${method.slice(0, 64)}" is not a 2026-07-28 method this server offers. Call server/discover for its capabilities.`,
    404,
  );
