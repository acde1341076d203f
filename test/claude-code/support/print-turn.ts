/** One print-mode turn in which the scripted model calls one of our tools; returns what the model got back. */
import type { ClaudeHome } from "./claude-cli";
import { printMode } from "./claude-cli";
import { SERVER_NAME, type MessagesApi, type ScriptedCall } from "./messages-api";
import { mcpToolName } from "./model-script";
import { record } from "./record";
import { resultFor, resultText, toolDescription, type MessagesRequest } from "./transcript";

export interface ModelSaw {
  /** The tool result's content as the model reads it. */
  text: string;
  isError: boolean;
  /** The request that carried it (system prompt, tools, the whole conversation). */
  request: MessagesRequest;
  /** The tool's description as the model was handed it (after ToolSearch loaded it), if it was. */
  description: string | undefined;
}

export async function printTurn(
  name: string,
  api: MessagesApi,
  home: ClaudeHome,
  call: ScriptedCall,
  prompt: string,
): Promise<ModelSaw> {
  api.script(call);
  const before = api.requests().length;
  const run = await printMode(home, prompt, 120_000);
  const target = mcpToolName(SERVER_NAME, call.tool);
  const request = api
    .requests()
    .slice(before)
    .find((r) => resultFor(r, target) !== undefined);
  const result = request && resultFor(request, target);
  if (run.code !== 0 || !request || !result) {
    throw new Error(
      `claude -p exited ${run.code} and the model ${result ? "got" : "never got"} a result of ${target}\nstdout: ${run.stdout.slice(-3000)}\nstderr: ${run.stderr.slice(-2000)}`,
    );
  }
  const description = toolDescription(request, target);
  const saw = { text: resultText(result), isError: result.is_error === true, request, description };
  record(`print-${name}`, { call, text: saw.text, isError: saw.isError, description: saw.description });
  return saw;
}
