/**
 * One interactive turn in tmux: the scripted model calls one of our tools, Claude Code backgrounds
 * the task (it declares the Tasks extension), and later hands the model a task notification.
 */
import type { ClaudeHome } from "./claude-cli";
import { SERVER_NAME, type MessagesApi, type ScriptedCall } from "./messages-api";
import { mcpToolName } from "./model-script";
import { record } from "./record";
import { startInteractive, type Terminal } from "./tmux";
import { resultFor, resultText, taskNotification, type TaskNotification } from "./transcript";

export interface InteractiveSaw {
  /** The tool result the model got at once (Claude Code's words about the backgrounded task). */
  immediate: string;
  /** The server's task id, as Claude Code names it. */
  serverTaskId: string;
  /** What the model got when the task ended. */
  notification: TaskNotification;
  /** When (epoch ms) the model was handed the task's end. */
  endHandedAt: number;
}

export interface TurnOptions {
  /** Acts on the terminal while the task runs (answers a form). */
  meanwhile?: (terminal: Terminal) => Promise<void>;
  /** How long the task may take to end (default 90 s). */
  endTimeoutMs?: number;
}

const READY = /\? for shortcuts|manual mode on/;

export async function interactiveTurn(
  name: string,
  api: MessagesApi,
  home: ClaudeHome,
  call: ScriptedCall,
  prompt: string,
  options: TurnOptions = {},
): Promise<InteractiveSaw> {
  api.script(call);
  const target = mcpToolName(SERVER_NAME, call.tool);
  const terminal = await startInteractive(home);
  try {
    await terminal.waitForScreen(READY, 60_000);
    const before = api.requests().length;
    await terminal.type(prompt);
    await terminal.keys("Enter");
    const first = await api.waitForRequest(
      (r) => resultFor(r, target) !== undefined,
      90_000,
      `a result of ${target}`,
      before,
    );
    const firstResult = resultFor(first, target);
    const immediate = firstResult ? resultText(firstResult) : "";
    const serverTaskId = immediate.match(/server-side task ([0-9a-f]+)/)?.[1];
    if (serverTaskId === undefined)
      throw new Error(`Claude Code did not background ${target}; the model got: ${immediate}`);
    if (options.meanwhile) await options.meanwhile(terminal);
    const ended = await api.waitForRequest(
      (r) => taskNotification(r, serverTaskId) !== undefined,
      options.endTimeoutMs ?? 90_000,
      `the end of task ${serverTaskId}`,
      before,
    );
    const endHandedAt = Date.now();
    const notification = taskNotification(ended, serverTaskId);
    if (!notification) throw new Error("unreachable: the matched request has the notification");
    record(`interactive-${name}`, { call, immediate, notification });
    return { immediate, serverTaskId, notification, endHandedAt };
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\nlast screen:\n${await terminal.screen().catch(() => "")}`,
    );
  } finally {
    await terminal.stop();
  }
}
