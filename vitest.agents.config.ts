// Real agent CLIs (Gemini CLI, Codex, Copilot CLI, Qwen Code, OpenCode) against a real `wrangler dev`:
// kept out of `npm test` (together about 1.2 GB, installed on demand by the global setup).
// Run it with `npm run test:agents`; one agent with `npm run test:agents -- test/agents/codex.test.ts`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/agents/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/agents/support/install-agents.ts"],
    // The long call runs 90 s and is followed to its end through the agent.
    testTimeout: 360_000,
    hookTimeout: 600_000,
    // Each file starts its own wrangler dev, stand-in model API and agent; two at once are plenty here.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
