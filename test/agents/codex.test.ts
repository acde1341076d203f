// The real codex CLI, headless, against `wrangler dev` and a stand-in for its model API (npm run test:agents).
import { codex } from "./clis/codex";
import { agentSuite } from "./support/suite";

agentSuite(codex);
