// The real opencode CLI, headless, against `wrangler dev` and a stand-in for its model API (npm run test:agents).
import { opencode } from "./clis/opencode";
import { agentSuite } from "./support/suite";

agentSuite(opencode);
