// The real qwen CLI, headless, against `wrangler dev` and a stand-in for its model API (npm run test:agents).
import { qwen } from "./clis/qwen";
import { agentSuite } from "./support/suite";

agentSuite(qwen);
