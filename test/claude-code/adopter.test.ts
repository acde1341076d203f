// Interactive Claude Code (tmux) against examples/create-mcp-handler, installed from the packed
// tarball (test/e2e/support/adopter.ts): an `agents` createMcpHandler Worker that adopted durable
// tasks. Claude Code backgrounds its countdown, shows the task's progress (`statusMessage`) in its
// task panel, and hands the model the countdown's own sentence at the end (issue 43).
import { afterAll, beforeAll, describe, it } from "vitest";
import { adopterConfig } from "../e2e/support/adopter";
import { failWithLogs, startDevServer, type DevServer } from "../e2e/support/wrangler-dev";
import * as expected from "./expected";
import { addServer, makeClaudeHome, type ClaudeHome } from "./support/claude-cli";
import { interactiveTurn } from "./support/interactive-turn";
import { startMcpTap, type McpTap } from "./support/mcp-tap";
import { startMessagesApi, type MessagesApi } from "./support/messages-api";
import { record } from "./support/record";
import { taskDoc } from "./support/server-tasks";
import { tmuxMissing, type Terminal } from "./support/tmux";

const noTmux = tmuxMissing();
if (noTmux) console.warn(`skipping interactive Claude Code tests: ${noTmux}`);

/** Long enough for the panel to be opened while it runs. */
const SECONDS = 20;
/** The example's countdown progress line (examples/create-mcp-handler/src/index.ts). */
const PANEL_PROGRESS = /\b\d+ s left\b/;

let server: DevServer;
let api: MessagesApi;
let tap: McpTap;
let home: ClaudeHome;

beforeAll(async () => {
  if (noTmux) return;
  const config = await adopterConfig("examples/create-mcp-handler");
  [server, api] = await Promise.all([startDevServer({ config }), startMessagesApi()]);
  tap = await startMcpTap(server.url);
  home = makeClaudeHome(api.url);
  await addServer(home, tap.url);
});

afterAll(async () => {
  await tap?.close();
  await server?.stop();
  await api?.close();
  home?.remove();
});

describe.skipIf(noTmux !== undefined)("interactive claude against the createMcpHandler example", () => {
  it("backgrounds countdown, shows its progress in the task panel, and hands the model its result", async ({
    expect,
  }) => {
    const shown: string[] = [];
    const watchPanel = async (terminal: Terminal) => {
      // As in interactive.test.ts: once the turn ends the screen says a task is still running; ↓ opens its panel.
      shown.push(await terminal.waitForScreen(/MCP tasks? still running/, 30_000));
      const panel = await terminal
        .waitForScreen(PANEL_PROGRESS, 5_000)
        .catch(async () => terminal.press("Down", PANEL_PROGRESS, 5));
      shown.push(panel);
      await terminal.keys("Escape");
    };
    const saw = await interactiveTurn(
      "adopter-countdown",
      api,
      home,
      { tool: "countdown", input: { seconds: SECONDS } },
      `Count down ${SECONDS} seconds.`,
      { meanwhile: watchPanel },
    ).catch((e: unknown) => failWithLogs(server, e));
    record("interactive-adopter-countdown-panel", { screens: shown });
    expect(saw.immediate).toMatch(expected.BACKGROUNDED);
    expect(shown.at(-1)).toMatch(PANEL_PROGRESS);
    expect(saw.notification.status).toBe("completed");
    expect(expected.readable(saw.notification.result)).toMatch(new RegExp(`Countdown of ${SECONDS} s finished\\.`));
    // Claude Code followed the task by polling the example's engine (tasks/get), which saw it end.
    expect((await taskDoc(server.url, saw.serverTaskId)).status).toBe("completed");
    expect(tap.seen().filter((t) => t.method === "tasks/get" && t.name === saw.serverTaskId).length).toBeGreaterThan(0);
  });
});
