// The real gemini CLI, headless, against `wrangler dev` and a stand-in for its model API (npm run test:agents).
import { gemini } from "./clis/gemini";
import { agentSuite } from "./support/suite";

agentSuite(gemini);
