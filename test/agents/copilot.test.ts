// The real copilot CLI, headless, against `wrangler dev` and a stand-in for its model API (npm run test:agents).
import { copilot } from "./clis/copilot";
import { agentSuite } from "./support/suite";

agentSuite(copilot);
