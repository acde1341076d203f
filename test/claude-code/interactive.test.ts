// Interactive Claude Code (driven in tmux; it declares the Tasks extension) against a real
// `wrangler dev`: it backgrounds our tasks, asks deploy's question as a form, and hands the model a
// task notification at the end: what that notification carries for countdown and deploy.
import { afterAll, beforeAll, describe, it } from "vitest";
import { failWithLogs, startDevServer, type DevServer } from "../e2e/support/wrangler-dev";
import * as expected from "./expected";
import { addServer, makeClaudeHome, type ClaudeHome } from "./support/claude-cli";
import { interactiveTurn } from "./support/interactive-turn";
import { startMessagesApi, type MessagesApi } from "./support/messages-api";
import { tmuxMissing, type Terminal } from "./support/tmux";

const noTmux = tmuxMissing();
if (noTmux) console.warn(`skipping interactive Claude Code tests: ${noTmux}`);

let server: DevServer;
let api: MessagesApi;
let home: ClaudeHome;

beforeAll(async () => {
  if (noTmux) return;
  [server, api] = await Promise.all([startDevServer(), startMessagesApi()]);
  home = makeClaudeHome(api.url);
  await addServer(home, server.url);
});

afterAll(async () => {
  await server?.stop();
  await api?.close();
  home?.remove();
});

/** Ticks deploy's confirm box and presses Accept, waiting for the screen at each step. */
async function answerYes(terminal: Terminal): Promise<void> {
  await terminal.waitForScreen(expected.DEPLOY_QUESTION, 60_000);
  // Space toggles, so it is pressed once and checked rather than repeated.
  await terminal.keys("Space");
  await terminal.waitForScreen(/Deploy: ☒/, 10_000);
  await terminal.press("Down", /❯ Note/);
  await terminal.press("Down", /❯ Accept/);
  await terminal.press("Enter", /^(?![\s\S]*requests your input)/);
}

describe.skipIf(noTmux !== undefined)("interactive claude (tmux)", () => {
  it("backgrounds countdown and hands the model its result sentence when it ends", async ({ expect }) => {
    const saw = await interactiveTurn("countdown", api, home, { tool: "countdown", input: expected.COUNTDOWN }, "Count down 2 seconds.").catch((e: unknown) => failWithLogs(server, e));
    expect(saw.immediate).toMatch(expected.BACKGROUNDED);
    expect(saw.notification.status).toBe("completed");
    expect(expected.readable(saw.notification.result)).toMatch(expected.COUNTDOWN_SAID);
  });

  it("asks deploy's question as a form and, answered yes, hands the model deploy's own result sentence", async ({ expect }) => {
    const saw = await interactiveTurn("deploy", api, home, { tool: "deploy", input: expected.DEPLOY }, "Deploy api v2.", answerYes).catch((e: unknown) => failWithLogs(server, e));
    expect(saw.immediate).toMatch(expected.BACKGROUNDED);
    expect(saw.notification.status).toBe("completed");
    expect(expected.readable(saw.notification.result)).toMatch(expected.DEPLOY_DONE);
  });
});
