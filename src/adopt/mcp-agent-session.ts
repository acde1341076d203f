/**
 * The McpAgent's session, as the template's 2025-11-25 endpoint needs it (a SessionChecker): the
 * session is agents', kept in the agent's own Durable Object with the client's `initialize`, so
 * it is looked up there: unknown or ended → 404, as agents itself answers; else what the client
 * declared (tasks, elicitation) and the version it asked for.
 */
import { getAgentByName } from "agents";
import * as z from "zod";
import { isRecord } from "../json";
import type { SessionChecker } from "../mcp-2025-11-25/endpoint";
import { jsonRpcErrorResponse } from "../protocol/errors";
import { agentObjectName } from "./mcp-agent-observer";
import type { TaskMcpAgent } from "./mcp-agent";

const InitializeSchema = z.object({
  params: z.object({
    protocolVersion: z.string().optional(),
    capabilities: z.record(z.string(), z.unknown()).default({}),
  }),
});

// As the template's SessionObject reads them: `elicitation: {}` is form mode; `{ url: {} }` alone is not.
const declaresTasks = (capabilities: Record<string, unknown>): boolean => isRecord(capabilities["tasks"]);
const declaresFormElicitation = (capabilities: Record<string, unknown>): boolean => {
  const elicitation = capabilities["elicitation"];
  return isRecord(elicitation) && (isRecord(elicitation["form"]) || !isRecord(elicitation["url"]));
};

export function agentSession(namespace: DurableObjectNamespace<TaskMcpAgent>, sessionId: string): SessionChecker {
  return async () => {
    const agent = await getAgentByName(namespace, agentObjectName(sessionId));
    const initialize = InitializeSchema.safeParse(await agent.getInitializeRequest());
    if (!initialize.success)
      return {
        ok: false,
        response: jsonRpcErrorResponse(
          404,
          -32001,
          "Session not found: it ended or never started. Send initialize again (without Mcp-Session-Id) to start a new one.",
        ),
      };
    const { protocolVersion, capabilities } = initialize.data.params;
    return {
      ok: true,
      sessionId,
      ...(protocolVersion !== undefined && { protocolVersion }),
      clientTasks: declaresTasks(capabilities),
      clientElicitation: declaresFormElicitation(capabilities),
      // agents' session: a plain call's notifications/cancelled goes to the McpAgent, not to us.
      keepsOpenCalls: false,
    };
  };
}
