/**
 * Copilot CLI (`copilot -p`) without a GitHub sign-in: its own-provider mode on the stand-in Chat
 * Completions API, our server in `$COPILOT_HOME/mcp-config.json`. COPILOT_OFFLINE is needed, else it
 * waits about 80 s for GitHub after the turn and does not exit.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentCli } from "../support/agent-cli";
import { PINNED } from "../support/install-agents";
import { chatCompletions } from "../support/wire-chat";

export const copilot: AgentCli = {
  name: "copilot",
  cli: PINNED.copilot,
  wire: chatCompletions,
  // What Copilot CLI waits for one MCP tool call by default (measured in docs/clients.md).
  toolTimeoutMs: 60_000,
  configure(bare, modelUrl, mcpUrl) {
    const copilotHome = join(bare.home, ".copilot");
    mkdirSync(copilotHome);
    const config = { mcpServers: { tasks: { type: "http", url: mcpUrl, tools: ["*"] } } };
    writeFileSync(join(copilotHome, "mcp-config.json"), JSON.stringify(config, null, 2));
    return {
      ...bare,
      env: {
        ...bare.env,
        COPILOT_HOME: copilotHome,
        COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
        COPILOT_PROVIDER_API_KEY: "standin",
        COPILOT_MODEL: "standin",
        COPILOT_OFFLINE: "true",
      },
      args: (prompt) => ["-p", prompt, "--allow-all-tools", "--output-format", "json"],
    };
  },
};
