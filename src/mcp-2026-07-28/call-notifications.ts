/**
 * Request-scoped notifications of a 2026-07-28 `tools/call` answered inline: `notifications/progress`
 * for the call's `progressToken`, and `notifications/message` only when the request set
 * `io.modelcontextprotocol/logLevel` (logging.mdx: never otherwise). Both ride the call's own
 * response stream; they never reach a `subscriptions/listen` stream.
 */
import type { Progress } from "../core";
import type { Context20260728 } from "./context";
import { logLevelAllows } from "./envelope";

export interface CallNotifier {
  progress(progress: Progress): void;
  log(level: string, message: string): void;
}

export function callNotifier(
  ctx: Context20260728,
  toolName: string,
  progressToken: string | number | undefined,
): CallNotifier {
  const { output, envelope } = ctx;
  return {
    progress(progress) {
      if (progressToken === undefined) return;
      output.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, ...progress } });
    },
    log(level, message) {
      if (!logLevelAllows(envelope.logLevel, level)) return;
      output.notify({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level, logger: toolName, data: message },
      });
    },
  };
}
