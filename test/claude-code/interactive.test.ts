// Interactive Claude Code (driven in tmux; it declares the Tasks extension) against a real
// `wrangler dev`: it backgrounds our tasks, asks deploy's question as a form, and hands the model a
// task notification at the end: what that notification carries for countdown and deploy, and how
// often it polls (`tasks/get`, read by a pass-through in front of /mcp) before it sees the end.
import { afterAll, beforeAll, describe, it } from "vitest";
import { failWithLogs, startDevServer, type DevServer } from "../e2e/support/wrangler-dev";
import * as expected from "./expected";
import { addServer, makeClaudeHome, type ClaudeHome } from "./support/claude-cli";
import { interactiveTurn, type InteractiveSaw } from "./support/interactive-turn";
import { startMcpTap, type McpTap } from "./support/mcp-tap";
import { startMessagesApi, type MessagesApi } from "./support/messages-api";
import { record } from "./support/record";
import { taskDoc } from "./support/server-tasks";
import { tmuxMissing, type Terminal } from "./support/tmux";

const noTmux = tmuxMissing();
if (noTmux) console.warn(`skipping interactive Claude Code tests: ${noTmux}`);

let server: DevServer;
let api: MessagesApi;
let tap: McpTap;
let home: ClaudeHome;

beforeAll(async () => {
  if (noTmux) return;
  [server, api] = await Promise.all([startDevServer(), startMessagesApi()]);
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

/** Ticks deploy's confirm box and presses Accept, looking at the screen after every key. */
async function answerYes(terminal: Terminal): Promise<void> {
  let shown = await terminal.waitForScreen(expected.DEPLOY_QUESTION, 60_000);
  // Space toggles, so it is pressed once and checked rather than repeated.
  await terminal.keys("Space");
  shown = await terminal.waitForScreen(/Deploy: ☒/, 10_000);
  // Down to the Accept button, one key at a time (a text field's focus shows no ❯; a key can be lost).
  for (let moves = 0; !/❯ Accept/.test(shown); moves++) {
    if (moves >= 8) throw new Error(`could not reach Accept:\n${shown}`);
    await terminal.keys(/❯ Decline/.test(shown) ? "Up" : "Down");
    shown = await terminal.waitForChange(shown, 2000).catch(() => shown);
  }
  await terminal.press("Enter", /^(?![\s\S]*requests your input)/);
}

/** How many times Claude Code polled the task, and how long after its end the model was handed it. */
async function polling(name: string, saw: InteractiveSaw): Promise<{ tasksGet: number; endSeenMs: number }> {
  const task = await taskDoc(server.url, saw.serverTaskId);
  const gets = tap.seen().filter((t) => t.method === "tasks/get" && t.name === saw.serverTaskId);
  const ended = Date.parse(task.lastUpdatedAt);
  // Each poll, from the task's end (negative: before it), with the interval the answer suggested.
  const polls = gets.map((t) => ({ fromEndMs: t.at - ended, pollIntervalMs: t.pollIntervalMs }));
  const figures = { status: task.status, tasksGet: gets.length, endSeenMs: saw.endHandedAt - ended, polls };
  record(`interactive-${name}-polling`, figures);
  return figures;
}

describe.skipIf(noTmux !== undefined)("interactive claude (tmux)", () => {
  it("backgrounds countdown and hands the model its result sentence when it ends", async ({ expect }) => {
    const saw = await interactiveTurn(
      "countdown",
      api,
      home,
      { tool: "countdown", input: expected.COUNTDOWN },
      "Count down 3 seconds.",
    ).catch((e: unknown) => failWithLogs(server, e));
    expect(saw.immediate).toMatch(expected.BACKGROUNDED);
    expect(saw.notification.status).toBe("completed");
    expect(expected.readable(saw.notification.result)).toMatch(expected.COUNTDOWN_SAID);
    expect((await polling("countdown", saw)).endSeenMs).toBeLessThanOrEqual(expected.END_SEEN_MS_SHORT);
  });

  it("polls a 90 s countdown little and still hands the model its end promptly", async ({ expect }) => {
    const saw = await interactiveTurn(
      "countdown-90",
      api,
      home,
      { tool: "countdown", input: expected.POLL_LONG_COUNTDOWN },
      "Count down 90 seconds.",
      { endTimeoutMs: 150_000 },
    ).catch((e: unknown) => failWithLogs(server, e));
    const { tasksGet, endSeenMs } = await polling("countdown-90", saw);
    expect(saw.notification.status).toBe("completed");
    expect.soft(tasksGet).toBeLessThanOrEqual(expected.POLL_MAX_TASKS_GET_LONG);
    expect.soft(endSeenMs).toBeLessThanOrEqual(expected.END_SEEN_MS_LONG);
  }, 240_000);

  it("shows batch_process's newest partial output in its task panel while it runs", async ({ expect }) => {
    const shown: string[] = [];
    const watchPanel = async (terminal: Terminal) => {
      // Once the turn ends the screen says "1 MCP task still running"; ↓ opens the task's panel.
      shown.push(await terminal.waitForScreen(/MCP tasks? still running/, 30_000));
      const panel = await terminal
        .waitForScreen(expected.PANEL_PARTIAL, 5_000)
        .catch(async () => terminal.press("Down", expected.PANEL_PARTIAL, 5));
      shown.push(panel);
      await terminal.keys("Escape");
    };
    const call = { tool: "batch_process", input: expected.BATCH };
    const options = { meanwhile: watchPanel };
    const saw = await interactiveTurn("batch-partial", api, home, call, "Process 6 items.", options).catch(
      (e: unknown) => failWithLogs(server, e),
    );
    record("interactive-batch-partial-panel", { screens: shown });
    expect(shown.at(-1)).toMatch(expected.PANEL_PARTIAL);
    expect(saw.notification.status).toBe("completed");
    await polling("batch-partial", saw);
  });

  it("asks deploy's question as a form and, answered yes, hands the model deploy's own result sentence", async ({
    expect,
  }) => {
    const saw = await interactiveTurn(
      "deploy",
      api,
      home,
      { tool: "deploy", input: expected.DEPLOY },
      "Deploy api v2.",
      { meanwhile: answerYes },
    ).catch((e: unknown) => failWithLogs(server, e));
    expect(saw.immediate).toMatch(expected.BACKGROUNDED);
    expect(saw.notification.status).toBe("completed");
    expect(expected.readable(saw.notification.result)).toMatch(expected.DEPLOY_DONE);
  });
});
