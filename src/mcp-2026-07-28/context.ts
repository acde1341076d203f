/** What every 2026-07-28 handler of one HTTP request can reach: the era-free context, the request's envelope and output. */
import type { McpRequestEnv } from "../http/mcp-endpoint";
import type { RequestContext } from "../protocol/request-context";
import type { RequestEnvelope } from "./envelope";
import type { RequestId } from "../protocol/errors";
import type { Output20260728 } from "./response";

export interface Context20260728 extends RequestContext<McpRequestEnv> {
  /** The client's capabilities, identity and log level, for this request only. */
  envelope: RequestEnvelope;
  requestId: RequestId;
  output: Output20260728;
}
