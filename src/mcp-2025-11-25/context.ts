/** What every 2025-11-25 handler of one HTTP request can reach: the era-free context, its session's client and its output. */
import type { RequestContext } from "../protocol/request-context";
import type { McpOutput } from "./request-transport";
import type { Caller } from "./task-streams";

export interface McpContext extends RequestContext, Caller {
  output: McpOutput;
}
