// The real copilot CLI, headless, against a real `wrangler dev` and a stand-in for its model API (npm run test:agents).
import { copilot } from "./clis/copilot";
import { agentSuite } from "./support/suite";

agentSuite(copilot);
