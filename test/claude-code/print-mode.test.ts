// Claude Code in print mode (`claude -p`, the headless and Agent SDK entry point: no Tasks
// extension, questions cancelled at once) against a real `wrangler dev`: what the model is handed
// for countdown, deploy and a call that outlives the inline wait, and what its system prompt says.
import { afterAll, beforeAll, describe, it } from "vitest";
import { failWithLogs, startDevServer, type DevServer } from "../e2e/support/wrangler-dev";
import * as expected from "./expected";
import { addServer, makeClaudeHome, type ClaudeHome } from "./support/claude-cli";
import { startMessagesApi, type MessagesApi } from "./support/messages-api";
import { printTurn } from "./support/print-turn";
import { record } from "./support/record";
import { cancelTask, discoverInstructions, newestTask } from "./support/server-tasks";
import { systemText } from "./support/transcript";

/** Long enough for a 3 s countdown on a busy machine, short enough that the long call falls back soon. */
const INLINE_WAIT_MS = 8000;

let server: DevServer;
let api: MessagesApi;
let home: ClaudeHome;

beforeAll(async () => {
  [server, api] = await Promise.all([
    startDevServer({ vars: { INLINE_WAIT_MS: String(INLINE_WAIT_MS) } }),
    startMessagesApi(),
  ]);
  home = makeClaudeHome(api.url);
  await addServer(home, server.url);
});

afterAll(async () => {
  await server?.stop();
  await api?.close();
  home?.remove();
});

describe("claude -p", () => {
  it("hands the model countdown's own result sentence", async ({ expect }) => {
    const saw = await printTurn(
      "countdown",
      api,
      home,
      { tool: "countdown", input: expected.COUNTDOWN },
      "Count down 3 seconds.",
    ).catch((e: unknown) => failWithLogs(server, e));
    expect(saw.isError).toBe(false);
    expect(expected.readable(saw.text)).toMatch(expected.COUNTDOWN_SAID);
  });

  it("hands the model, in countdown's description, the line on how long calls work", async ({ expect }) => {
    const call = { tool: "countdown", input: expected.COUNTDOWN };
    const saw = await printTurn("description", api, home, call, "Count down 3 seconds.").catch((e: unknown) =>
      failWithLogs(server, e),
    );
    expect(saw.description).toMatch(expected.DESCRIPTION_LONG_CALL);
  });

  it("hands the model deploy's 'not deployed, no one could answer' and what a person can still do", async ({
    expect,
  }) => {
    const saw = await printTurn(
      "deploy",
      api,
      home,
      { tool: "deploy", input: expected.DEPLOY },
      "Deploy api v2.",
    ).catch((e: unknown) => failWithLogs(server, e));
    const text = expected.readable(saw.text);
    expect.soft(text).toMatch(expected.DEPLOY_NOT_DEPLOYED);
    expect.soft(text).toMatch(expected.DEPLOY_NOBODY_ANSWERED);
    expect.soft(text).toMatch(expected.DEPLOY_WHAT_NEXT(server.url));
  });

  it("hands the model, for a call past the inline wait, the sentence to call task_result with the taskId and when", async ({
    expect,
  }) => {
    const saw = await printTurn(
      "fallback",
      api,
      home,
      { tool: "countdown", input: expected.LONG_COUNTDOWN },
      "Count down a minute.",
    ).catch((e: unknown) => failWithLogs(server, e));
    const task = await newestTask(server.url, "countdown");
    await cancelTask(server.url, task.taskId);
    const text = expected.readable(saw.text);
    expect(task.status).toBe("working");
    expect.soft(text).toMatch(expected.FALLBACK_NOT_RESULT);
    expect.soft(text).toMatch(expected.FALLBACK_CALL_BACK(task.taskId));
    expect.soft(text).toMatch(expected.FALLBACK_WHEN);
  });

  it("tells the model, for a tool that only runs as a task, why in words it can relay (or does not offer the tool)", async ({
    expect,
  }) => {
    const saw = await printTurn(
      "build-report",
      api,
      home,
      { tool: "build_report", input: expected.BUILD_REPORT },
      "Build a 2-page report.",
    ).catch((e: unknown) => failWithLogs(server, e));
    // A server may also leave the tool out of what print mode is offered: then there is nothing to misread.
    if (!systemText(saw.request).includes("mcp__tasks__build_report")) return;
    expect.soft(saw.text).toMatch(expected.TASK_ONLY_SAYS_WHY);
    expect.soft(saw.text).not.toMatch(expected.TASK_ONLY_NO_WIRE);
  });

  it("puts the server's instructions, written for a model, in the system prompt", async ({ expect }) => {
    const saw = await printTurn("echo", api, home, { tool: "echo", input: { text: "hi" } }, "Say hi.").catch(
      (e: unknown) => failWithLogs(server, e),
    );
    const instructions = await discoverInstructions(server.url);
    const system = systemText(saw.request);
    const heading = system.indexOf("# MCP Server Instructions");
    const section =
      heading < 0 ? "" : system.slice(heading, system.indexOf(instructions, heading) + instructions.length);
    record("print-instructions", { instructions, section });
    expect(system).toMatch(expected.INSTRUCTIONS_HEADING);
    expect(system).toContain(`## tasks\n${instructions}`);
    expect.soft(instructions).toMatch(expected.INSTRUCTIONS_CHECK_BACK);
    expect.soft(instructions).toMatch(expected.INSTRUCTIONS_QUESTIONS);
    expect.soft(instructions).not.toMatch(expected.INSTRUCTIONS_NO_WIRE);
  });
});
