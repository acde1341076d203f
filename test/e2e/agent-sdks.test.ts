// The programmatic clients agents are built on, against a real `wrangler dev` (issue 31, point 5):
// the Vercel AI SDK's MCP client (@ai-sdk/mcp) and the OpenAI Agents SDK's MCPServerStreamableHttp
// (@openai/agents). Each lists our tools, makes a call that outlasts the inline wait, and follows the
// "Still running" pointer with task_result to the end, as a model would, reading what its model gets.
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { MCPServerStreamableHttp } from "@openai/agents";
import { afterAll, beforeAll, describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { SHORT_INLINE_VARS } from "./support/server-settings";

/** Short, so the 8 s countdown outlasts it: the settings core.test.ts uses, so the server is shared. */
const server = sharedServer(SHORT_INLINE_VARS);
const LONG = { seconds: 8 };
const LONG_SAID = /Countdown of 8 s finished\./;
const TASK_ID = /taskId "([^"]+)"/;
/** task_result waits up to 25 s per call, so 8 s takes one; this bounds a stuck loop. */
const MAX_FOLLOW_UPS = 10;

interface Followed {
  first: string;
  taskId: string;
  last: string;
  followUps: number;
}

/** Calls countdown, then task_result with the taskId it was given while the answer says it still runs. */
async function followLongCall(
  call: (tool: string, args: Record<string, unknown>) => Promise<string>,
): Promise<Followed> {
  const first = await call("countdown", LONG);
  const taskId = first.match(TASK_ID)?.[1];
  if (taskId === undefined)
    throw new Error(`countdown ${LONG.seconds} s answered without a task_result pointer: ${first}`);
  let last = first;
  let followUps = 0;
  while (/still running/i.test(last) && followUps < MAX_FOLLOW_UPS) {
    last = await call("task_result", { taskId });
    followUps += 1;
  }
  return { first, taskId, last, followUps };
}

/** Every string inside what the model is handed (text parts, resource link descriptions), one a line. */
function stringsIn(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(stringsIn).join("\n");
  if (typeof value === "object" && value !== null) return Object.values(value).map(stringsIn).join("\n");
  return "";
}

describe("Vercel AI SDK MCP client (@ai-sdk/mcp 2.0.99)", () => {
  let client: MCPClient;

  beforeAll(async () => {
    client = await createMCPClient({ transport: { type: "http", url: `${server.url}/mcp` }, clientName: "ai-sdk-e2e" });
  });

  afterAll(async () => {
    await client?.close();
  });

  it("offers our tools as AI SDK tools and drives a long call to its end through task_result", async ({ expect }) => {
    const tools = await client.tools();
    expect(Object.keys(tools)).toEqual(
      expect.arrayContaining(["countdown", "deploy", "task_result", "task_status", "task_cancel"]),
    );
    let calls = 0;
    // What the model gets: the tool's execute() output through its own toModelOutput, as generateText hands it on.
    const followed = await followLongCall(async (name, input) => {
      const tool = tools[name];
      if (tool?.execute === undefined) throw new Error(`the AI SDK offers no executable ${name}`);
      const toolCallId = `call-${++calls}`;
      const output = await tool.execute(input, { toolCallId, messages: [], context: {} });
      if (Symbol.asyncIterator in output) throw new Error(`${name} streamed its output: an MCP tool answers once`);
      const forModel = await tool.toModelOutput?.({ toolCallId, input, output });
      return stringsIn(forModel ?? output);
    });
    expect(followed.first).toMatch(/Still running/);
    expect(followed.first).toMatch(/This is not its result/);
    expect(followed.followUps).toBeGreaterThan(0);
    expect(followed.last).toMatch(LONG_SAID);
  });
});

describe("OpenAI Agents SDK (@openai/agents 0.20.0) MCPServerStreamableHttp", () => {
  let mcp: MCPServerStreamableHttp;

  beforeAll(async () => {
    mcp = new MCPServerStreamableHttp({ url: `${server.url}/mcp`, name: "tasks" });
    await mcp.connect();
  });

  afterAll(async () => {
    await mcp?.close();
  });

  it("lists our tools and drives a long call to its end through task_result", async ({ expect }) => {
    const tools = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["countdown", "deploy", "task_result", "task_status", "task_cancel"]),
    );
    // The content parts are what an Agent's model is handed as the function call's output.
    const followed = await followLongCall(async (name, args) => stringsIn(await mcp.callTool(name, args)));
    expect(followed.first).toMatch(/Still running/);
    expect(followed.first).toMatch(/This is not its result/);
    expect(followed.followUps).toBeGreaterThan(0);
    expect(followed.last).toMatch(LONG_SAID);
  });
});
