/**
 * `deploy`: human in the loop. It plans in a step, asks a person to confirm
 * ("Deploy {service} {version} to production?") and waits durably for the answer with nothing
 * running; on yes it rolls out in three steps with progress, on anything else it deploys nothing.
 * The rollout is simulated (about a second per step); the question and its answer are real.
 */
import * as z from "zod";
import { answeredOnItsOwn, askWhereAPersonCan, defineTool, type InputAnswer } from "mcp-task-worker";

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
  outputSchema: z.object({
    deployed: z.boolean().describe("Whether the version is now in production."),
    service: z.string(),
    version: z.string(),
    action: z
      .enum(["accept", "decline", "cancel"])
      .optional()
      .describe("How the question was answered, when nothing was deployed."),
    note: z.string().optional().describe("The note the person gave with their yes."),
    automatic: z.boolean().optional().describe("True when the client answered on its own: no one saw the question."),
  }),
  async run({ service, version }, job) {
    const plan = await job.step("plan", () => ({ service, version, steps: ROLLOUT.length }));
    const question = `Deploy ${service} ${version} to production?`;
    const answer = await job.elicit("confirm", {
      message: question,
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
      const unseen = answer.automatic ? { automatic: true } : {};
      return {
        content: [{ type: "text", text: notDeployed(answer, service, version, question) }],
        structuredContent: { deployed: false, service, version, action: answer.action, ...unseen },
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

/**
 * Why nothing was deployed, in words a model can relay. A decline or cancel too soon for a person
 * is the client's own (headless agents answer at once); a later cancel means nobody made a choice.
 */
function notDeployed(answer: InputAnswer, service: string, version: string, question: string): string {
  const { action } = answer;
  if (action === "accept") return `Not deployed: ${service} ${version} was not confirmed for production.`;
  if (answer.automatic) {
    const what = `${answeredOnItsOwn(answer, question)} Nothing was rolled out.`;
    return `Not deployed: ${what} ${askWhereAPersonCan("deploy", "deploy")}`;
  }
  if (action === "decline") return `Not deployed: the person declined deploying ${service} ${version} to production.`;
  return `Not deployed: nobody answered "${question}" (the question was cancelled: the person dismissed it, or the client could not show it to anyone). Nothing was rolled out; to deploy, call deploy again where a person can confirm it.`;
}
