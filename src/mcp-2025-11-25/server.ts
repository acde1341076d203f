/**
 * One SDK `Server` per HTTP request (stateless, ~1 ms): the SDK does the protocol
 * plumbing (initialize, ping, schemas, errors); our handlers reach the task core.
 */
import type { McpContext } from "./context";
import { registerResourceHandlers } from "./handlers/resources";
import { registerSubscriptionHandlers } from "./handlers/subscriptions";
import { registerTaskHandlers } from "./handlers/tasks";
import { registerToolHandlers } from "./handlers/tools";
import { SdkServer } from "./sdk-server";
import { MODEL_INSTRUCTIONS } from "../protocol/instructions";
import { SERVER_INFO, SHARED_CAPABILITIES } from "../protocol/server-info";

export const SERVER_CAPABILITIES = {
  ...SHARED_CAPABILITIES,
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  logging: {},
};

export function createMcpServer(ctx: McpContext): SdkServer {
  const server = new SdkServer(SERVER_INFO, { capabilities: SERVER_CAPABILITIES, instructions: MODEL_INSTRUCTIONS });
  registerToolHandlers(server, ctx);
  registerTaskHandlers(server, ctx);
  registerResourceHandlers(server, ctx);
  registerSubscriptionHandlers(server, ctx);
  return server;
}
