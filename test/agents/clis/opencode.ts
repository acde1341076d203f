/**
 * OpenCode (`opencode run`): a provider on `@ai-sdk/openai-compatible` pointed at the stand-in Chat
 * Completions API, our server as a remote MCP server, every permission allowed, and the four
 * OPENCODE_DISABLE_* switches that keep it off the network (model list, updates, plugins, LSPs).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentCli } from "../support/agent-cli";
import { PINNED } from "../support/install-agents";
import { chatCompletions } from "../support/wire-chat";

export const opencode: AgentCli = {
  name: "opencode",
  cli: PINNED.opencode,
  wire: chatCompletions,
  // OpenCode's `mcp.<name>.timeout` default; progress notifications reset it.
  toolTimeoutMs: 60_000,
  configure(bare, modelUrl, mcpUrl) {
    const folder = join(bare.home, ".config", "opencode");
    mkdirSync(folder, { recursive: true });
    const config = {
      autoupdate: false,
      model: "standin/standin",
      provider: {
        standin: {
          npm: "@ai-sdk/openai-compatible",
          name: "Stand-in",
          options: { baseURL: `${modelUrl}/v1`, apiKey: "standin" },
          models: { standin: { name: "Stand-in" } },
        },
      },
      mcp: { tasks: { type: "remote", url: mcpUrl, enabled: true } },
      permission: { "*": "allow" },
    };
    writeFileSync(join(folder, "opencode.json"), JSON.stringify(config, null, 2));
    const quiet = {
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    };
    return {
      ...bare,
      env: { ...bare.env, ...quiet },
      // The prompt word by word, as its `run [message..]` takes it.
      args: (prompt) => ["run", "--format", "json", "--auto", "--title", "standin", ...prompt.split(" ")],
    };
  },
};
