/**
 * Codex (`codex exec`): a custom provider on the stand-in Responses API, our server as
 * `[mcp_servers.tasks]`. `default_tools_approval_mode = "approve"` is needed, else `exec` (which
 * cannot ask anyone) refuses every MCP tool call.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentCli } from "../support/agent-cli";
import { PINNED } from "../support/install-agents";
import { responses } from "../support/wire-responses";

export const codex: AgentCli = {
  name: "codex",
  cli: PINNED.codex,
  wire: responses,
  // Codex's MCP `tool_timeout_sec` default.
  toolTimeoutMs: 60_000,
  configure(bare, modelUrl, mcpUrl) {
    const codexHome = join(bare.home, ".codex");
    mkdirSync(codexHome);
    const config = [
      'model = "standin"',
      'model_provider = "standin"',
      'approval_policy = "never"',
      'sandbox_mode = "read-only"',
      "[model_providers.standin]",
      'name = "standin"',
      `base_url = "${modelUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "STANDIN_API_KEY"',
      "[mcp_servers.tasks]",
      `url = "${mcpUrl}"`,
      'default_tools_approval_mode = "approve"',
    ];
    writeFileSync(join(codexHome, "config.toml"), config.join("\n") + "\n");
    return {
      ...bare,
      env: { ...bare.env, CODEX_HOME: codexHome, STANDIN_API_KEY: "standin" },
      args: (prompt) => ["exec", "--skip-git-repo-check", "--json", prompt],
    };
  },
};
