/** What every 2026-07-28 handler of one HTTP request can reach: the era-free context, the request's envelope and output. */
import type { RequestContext } from "../protocol/request-context";
import type { RequestEnvelope } from "./envelope";
import type { RequestId } from "./errors";
import type { ModernOutput } from "./response";

export interface ModernContext extends RequestContext {
  /** The client's capabilities, identity and log level, for this request only. */
  envelope: RequestEnvelope;
  requestId: RequestId;
  output: ModernOutput;
}
