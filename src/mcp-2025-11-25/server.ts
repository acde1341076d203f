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
import { SERVER_INFO } from "../protocol/server-info";


export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: true, listChanged: false },
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  logging: {},
};

const INSTRUCTIONS =
  "Long tool calls run as durable tasks. If a call returns a task link instead of a result, " +
  "check back later by reading the linked task:// resource, with tasks/get and tasks/result, or with the task_status and task_result tools.";

export function createMcpServer(ctx: McpContext): SdkServer {
  const server = new SdkServer(SERVER_INFO, { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS });
  registerToolHandlers(server, ctx);
  registerTaskHandlers(server, ctx);
  registerResourceHandlers(server, ctx);
  registerSubscriptionHandlers(server, ctx);
  return server;
}
