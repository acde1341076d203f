/**
 * Gemini CLI (`gemini -p`): the Gemini API at GOOGLE_GEMINI_BASE_URL, our server in
 * `~/.gemini/settings.json`. GEMINI_CLI_TRUST_WORKSPACE is needed: in an untrusted folder
 * headless mode ignores the MCP servers configured.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentCli } from "../support/agent-cli";
import { PINNED } from "../support/install-agents";
import { gemini as geminiWire } from "../support/wire-gemini";

export const gemini: AgentCli = {
  name: "gemini",
  cli: PINNED.gemini,
  wire: geminiWire,
  // Gemini CLI's MCP request timeout default (`mcpServers.<name>.timeout`, 10 minutes).
  toolTimeoutMs: 600_000,
  haltsAtRepeatedCall: 5,
  configure(bare, modelUrl, mcpUrl) {
    mkdirSync(join(bare.home, ".gemini"));
    const settings = {
      mcpServers: { tasks: { httpUrl: mcpUrl } },
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
    };
    writeFileSync(join(bare.home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
    return {
      ...bare,
      env: {
        ...bare.env,
        GEMINI_API_KEY: "standin",
        GOOGLE_GEMINI_BASE_URL: modelUrl,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
      },
      // --debug: its MCP errors are otherwise only "MCP issues detected".
      args: (prompt) => ["-p", prompt, "--yolo", "-o", "stream-json", "-m", "gemini-2.5-flash", "--debug"],
    };
  },
};
