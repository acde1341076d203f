/** What every 2026-07-28 handler of one HTTP request can reach. */
import type { Settings } from "../config";
import type { TaskGateway } from "../core";
import type { RequestEnvelope } from "./envelope";
import type { RequestId } from "./errors";
import type { ModernOutput } from "./response";

export interface ModernContext {
  env: Env;
  settings: Settings;
  gateway: TaskGateway;
  /** The server's public origin, for links such as `/tasks/{id}`. */
  baseUrl: string;
  /** The client's capabilities, identity and log level, for this request only. */
  envelope: RequestEnvelope;
  requestId: RequestId;
  output: ModernOutput;
  /** Keeps background work (a stream still being written) alive after the response starts. */
  waitUntil(promise: Promise<unknown>): void;
}
