/** What every 2025-11-25 handler of one HTTP request can reach: the era-free context, its session's client and its output. */
import type { GatewayEnv } from "../principals/principal-indexes";
import type { RequestContext } from "../protocol/request-context";
import type { SessionBindings } from "./session";
import type { McpOutput } from "./request-transport";
import type { Caller } from "./task-streams";

export interface McpContext extends RequestContext<GatewayEnv & SessionBindings>, Caller {
  output: McpOutput;
  /** False when the session is not the template's own: a plain call is then not kept open for notifications/cancelled. */
  keepsOpenCalls?: boolean;
}
