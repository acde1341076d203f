/**
 * Qwen Code (`qwen -p`): OpenAI Chat Completions at OPENAI_BASE_URL, our server in
 * `~/.qwen/settings.json`. It hides MCP tools from its model behind `tool_search` / `tool_call`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentCli } from "../support/agent-cli";
import { PINNED } from "../support/install-agents";
import { chatCompletions } from "../support/wire-chat";

export const qwen: AgentCli = {
  name: "qwen",
  cli: PINNED.qwen,
  wire: chatCompletions,
  // Qwen Code's MCP request timeout default (`mcpServers.<name>.timeout`, 10 minutes, as Gemini CLI it forked).
  toolTimeoutMs: 600_000,
  haltsAtRepeatedCall: 5,
  configure(bare, modelUrl, mcpUrl) {
    mkdirSync(join(bare.home, ".qwen"));
    const settings = {
      mcpServers: { tasks: { httpUrl: mcpUrl } },
      security: { auth: { selectedType: "openai" } },
      privacy: { usageStatisticsEnabled: false },
    };
    writeFileSync(join(bare.home, ".qwen", "settings.json"), JSON.stringify(settings, null, 2));
    return {
      ...bare,
      // QWEN_CODE_DEBUG: when an MCP server fails to start, its reason is otherwise not printed.
      env: {
        ...bare.env,
        OPENAI_BASE_URL: `${modelUrl}/v1`,
        OPENAI_API_KEY: "standin",
        OPENAI_MODEL: "standin",
        QWEN_CODE_DEBUG: "1",
      },
      args: (prompt) => ["-p", prompt, "--yolo", "-o", "stream-json"],
    };
  },
};
