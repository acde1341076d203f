/** What every MCP handler of one HTTP request can reach. */
import type { Settings } from "../config";
import type { TaskGateway } from "../core";
import type { McpOutput } from "./request-transport";
import type { Caller } from "./task-streams";

export interface McpContext extends Caller {
  env: Env;
  settings: Settings;
  gateway: TaskGateway;
  output: McpOutput;
  /** The server's public origin, for links such as `/tasks/{id}`. */
  baseUrl: string;
  /** Keeps background work (a stream still being written) alive after the response starts. */
  waitUntil(promise: Promise<unknown>): void;
}
