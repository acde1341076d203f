/**
 * `TaskMcpAgent`: `agents`' McpAgent (one Durable Object per MCP session, an SDK v1 McpServer) that
 * also carries a durable task's messages to its session's GET stream. A task's job runs in its own
 * TaskObject, another object than the session's, so its `notifications/tasks/status` and
 * `notifications/progress` reach the session through this one RPC method (mcp-agent-observer.ts).
 * An adopter writes `class MyMCP extends TaskMcpAgent` where it wrote `extends McpAgent`; nothing
 * else of the class changes.
 */
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpAgent } from "agents/mcp";

/** What the TaskObject's observer may call on a session's agent (its Durable Object stub). */
export interface TaskMessageSink {
  /** Sends each JSON-RPC message on the session's GET stream; false when the session has ended (nothing sent). */
  deliverTaskMessages(messages: readonly string[]): Promise<boolean>;
}

export abstract class TaskMcpAgent<
    E extends Cloudflare.Env = Cloudflare.Env,
    State = unknown,
    Props extends Record<string, unknown> = Record<string, unknown>,
  >
  extends McpAgent<E, State, Props>
  implements TaskMessageSink
{
  async deliverTaskMessages(messages: readonly string[]): Promise<boolean> {
    // A session the client ended (DELETE) has no initialize request left: its messages go nowhere.
    if ((await this.getInitializeRequest()) === undefined) return false;
    const server = await this.server;
    const protocol = "server" in server ? server.server : server;
    const { transport } = protocol;
    if (transport === undefined) return false;
    // No related request: agents' transport sends it on the standalone GET stream and keeps it in
    // its event store, so a client that reconnects with Last-Event-ID still gets it.
    for (const message of messages) await transport.send(JSONRPCMessageSchema.parse(JSON.parse(message)));
    return true;
  }
}
