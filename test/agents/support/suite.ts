/**
 * The checks every agent gets (issue 31, point 5), against a real `wrangler dev` with the stand-in
 * for its model API: it connects and offers our tools to its model; a quick call hands the model the
 * tool's words; a 90 s call is answered "Still running" well before the agent's tool timeout, with how
 * to get the result, and task_result later brings the end; deploy's question ends in words that say
 * what really happened; its output shows no MCP error.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { cancelTask, newestTask } from "../../claude-code/support/server-tasks";
import { failWithLogs, startDevServer, type DevServer } from "../../e2e/support/wrangler-dev";
import * as expected from "../expected";
import { makeHome, type AgentCli } from "./agent-cli";
import { agentTurn, described, type Setup, type TurnSeen } from "./agent-turn";
import { startMcpTap } from "./mcp-tap";
import { startModelApi } from "./model-api";
import { offers } from "./model-script";

const OUR_TOOLS = ["countdown", "deploy", "task_result"];

export function agentSuite(agent: AgentCli): void {
  let server: DevServer;
  let setup: Setup;
  let remove = () => {};
  const outputs: string[] = [];
  let quick: Promise<TurnSeen> | undefined;

  beforeAll(async () => {
    const [dev, api] = await Promise.all([startDevServer(), startModelApi(agent.wire)]);
    server = dev;
    const tap = await startMcpTap(server.url);
    const bare = makeHome(agent.name);
    remove = bare.remove;
    setup = { agent, api, tap, home: agent.configure(bare, api.url, `${tap.url}/mcp`) };
  });

  afterAll(async () => {
    await server?.stop();
    await setup?.api.close();
    await setup?.tap.close();
    remove();
  });

  const turn = async (name: string, script: Parameters<typeof agentTurn>[2], prompt: string) => {
    const seen = await agentTurn(setup, name, script, prompt).catch((e: unknown) => failWithLogs(server, e));
    outputs.push(seen.run.stdout + seen.run.stderr);
    return seen;
  };
  const quickTurn = () =>
    (quick ??= turn("quick", { tool: "countdown", args: expected.QUICK }, "Count down 2 seconds."));

  describe(`${agent.name} ${agent.cli.version}`, () => {
    it("connects and offers our tools to its model", async ({ expect }) => {
      const seen = await quickTurn();
      const opened = seen.mcp.find((m) => m.method === "initialize" || m.method === "server/discover");
      expect(opened?.status, described(seen)).toBe(200);
      expect(
        seen.mcp.some((m) => m.method === "tools/list"),
        described(seen),
      ).toBe(true);
      const offering = seen.turns.find((t) => offers(t, "countdown"));
      for (const tool of OUR_TOOLS)
        expect(offering && offers(offering, tool), `${tool} offered: ${described(seen)}`).toBe(true);
    });

    it("hands the model the quick call's own words", async ({ expect }) => {
      const seen = await quickTurn();
      expect(seen.results.length, described(seen)).toBe(1);
      expect(expected.readable(seen.results[0]?.text ?? "")).toMatch(expected.QUICK_SAID);
    });

    const long = `answers a ${expected.LONG_SECONDS} s call "Still running" before its tool timeout`;
    it(`${long}, says how to get the result, and task_result brings the end`, async ({ expect }) => {
      const seen = await turn(
        "long",
        { tool: "countdown", args: expected.LONG, follow: true },
        `Count down ${expected.LONG_SECONDS} seconds.`,
      );
      expect(seen.results.length, `the model got no countdown result: ${described(seen)}`).toBeGreaterThan(0);
      const task = await newestTask(server.url, "countdown");
      const first = expected.readable(seen.results[0]?.text ?? "");
      expect(first, described(seen)).toMatch(expected.FALLBACK_NOT_RESULT);
      expect.soft(first).toMatch(expected.FALLBACK_CALL_BACK(task.taskId));
      expect.soft(first).toMatch(expected.FALLBACK_WHEN);
      // Answered in time: the model was handed the pointer well inside the agent's tool timeout.
      const call = seen.mcp.find((m) => m.method === "tools/call");
      const handed = seen.turns.find((t) => t.results.length > 0);
      expect(call && handed && handed.at - call.at).toBeLessThan(agent.toolTimeoutMs);
      const end = expected.readable(seen.followUps.at(-1)?.text ?? "");
      expect(end, `${seen.followUps.length} task_result calls; ${described(seen)}`).toMatch(expected.LONG_SAID);
    });

    // A model that calls task_result again at once: agents with loop detection halt the turn at the
    // Nth identical call, so task_result's own wait (25 s) must carry a 90 s task past that.
    const halts = agent.haltsAtRepeatedCall;
    it.runIf(halts !== undefined)(
      `follows a ${expected.LONG_SECONDS} s call to its end when its model calls task_result again at once`,
      async ({ expect }) => {
        const seen = await turn(
          "eager",
          { tool: "countdown", args: expected.LONG, follow: true, callBackAtOnce: true },
          `Count down ${expected.LONG_SECONDS} seconds.`,
        );
        const end = expected.readable(seen.followUps.at(-1)?.text ?? "");
        expect(end, `${seen.followUps.length} task_result calls; ${described(seen)}`).toMatch(expected.LONG_SAID);
        expect(seen.followUps.length).toBeLessThan(halts ?? 0);
      },
    );

    it("ends deploy's question in words that say what really happened", async ({ expect }) => {
      const seen = await turn("deploy", { tool: "deploy", args: expected.DEPLOY }, "Deploy api v2.");
      expect(seen.results.length, `the model got no deploy result: ${described(seen)}`).toBeGreaterThan(0);
      const task = await newestTask(server.url, "deploy");
      if (task.status !== "completed" && task.status !== "cancelled" && task.status !== "failed")
        await cancelTask(server.url, task.taskId);
      const text = expected.readable(seen.results[0]?.text ?? "");
      expect(text, described(seen)).not.toBe("");
      expect.soft(text).not.toMatch(expected.DEPLOY_PERSON_DECLINED);
      if (expected.DEPLOY_WAITING.test(text)) {
        // A client that cannot ask: the question waits, and the words say where a person answers it.
        expect.soft(text).toMatch(expected.DEPLOY_WHAT_NEXT(server.url));
      } else {
        expect.soft(text).toMatch(expected.DEPLOY_NOT_DEPLOYED);
        expect.soft(text).toMatch(expected.DEPLOY_NO_PERSON);
        expect.soft(text).toMatch(expected.DEPLOY_WHAT_NEXT(server.url));
      }
    });

    it("shows no MCP error in its output, and the server refused none of its requests", async ({ expect }) => {
      await quickTurn();
      const errors = outputs
        .join("\n")
        .split("\n")
        .filter((line) => expected.MCP_ERRORS.test(line));
      expect.soft(errors).toEqual([]);
      // A GET answered 405 is the spec's "no (further) SSE stream here", which clients take quietly:
      // the answer to a reconnect of a POST stream while the session's GET stream is live (streams.md).
      const quietNoStream = (m: { httpMethod?: string; status?: number }) => m.httpMethod === "GET" && m.status === 405;
      const refused = setup.tap.seen().filter((m) => (m.status ?? 0) >= 400 && !quietNoStream(m));
      expect.soft(refused.map((m) => `${m.httpMethod} ${m.method ?? ""} → ${m.status ?? "?"}`)).toEqual([]);
    });
  });
}
