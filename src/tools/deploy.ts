/**
 * `deploy`: human in the loop. It plans in a step, asks a person to confirm
 * ("Deploy {service} {version} to production?") and waits durably for the answer with nothing
 * running; on yes it rolls out in three steps with progress, on anything else it deploys nothing.
 * The rollout is simulated (about a second per step); the question and its answer are real.
 */
import * as z from "zod";
import { defineTool } from "./define";

const ROLLOUT = ["canary", "half of the fleet", "the whole fleet"] as const;
const STEP_SECONDS = 1;

export default defineTool({
  name: "deploy",
  title: "Deploy",
  description:
    "Deploys a service version to production after a person confirms it (the call waits for the answer, for days if need be), then rolls it out in three steps with progress.",
  inputSchema: z.object({
    service: z.string().min(1).max(100).describe("The service to deploy."),
    version: z.string().min(1).max(100).describe("The version to deploy."),
  }),
  taskSupport: "optional",
  async run({ service, version }, job) {
    const plan = await job.step("plan", () => ({ service, version, steps: ROLLOUT.length }));
    const answer = await job.elicit("confirm", {
      message: `Deploy ${service} ${version} to production?`,
      requestedSchema: {
        type: "object",
        properties: {
          confirm: { type: "boolean", title: "Deploy", description: `Roll ${service} ${version} out to production.` },
          note: { type: "string", title: "Note", description: "Optional: a note for the deploy log.", maxLength: 500 },
        },
        required: ["confirm"],
      },
    });
    if (answer.action !== "accept" || answer.content?.["confirm"] !== true) {
      const why = answer.action === "accept" ? "not confirmed" : answer.action === "decline" ? "declined" : "cancelled";
      return {
        content: [{ type: "text", text: `Not deployed: ${service} ${version} was ${why}.` }],
        structuredContent: { deployed: false, service, version, action: answer.action },
      };
    }
    const note = answer.content["note"];
    if (typeof note === "string" && note !== "") await job.log(`Deploy note: ${note}`);
    for (const [index, target] of ROLLOUT.entries()) {
      await job.step(`rollout ${index + 1}`, async () => {
        await job.sleep(STEP_SECONDS, `rolling out to ${target}`);
        return target;
      });
      await job.progress(index + 1, plan.steps, `rolled out to ${target}`);
    }
    return {
      content: [{ type: "text", text: `Deployed ${service} ${version} to production in ${plan.steps} steps.` }],
      structuredContent: { deployed: true, service, version, ...(typeof note === "string" && note !== "" && { note }) },
    };
  },
});
