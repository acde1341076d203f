// What a model reads, whichever part of a result its client passes on (docs/model-facing.md): Claude
// Code hands it JSON.stringify(structuredContent) and drops the text, others pass the text. Through
// the SDK v1 Client (2025-11-25, which validates every result against the tool's outputSchema once
// it has listed the tools) and the SDK v2 Client pinned to 2026-07-28 (no Tasks extension), each
// result's structured object carries the sentence, and its text says the same.
import { afterAll, describe, it, vi, type ExpectStatic } from "vitest";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectClient } from "./support/mcp";
import { sharedServer } from "./support/dev-server";
import { MIDDLE_INLINE_VARS } from "./support/server-settings";
import { DEPLOY, QUESTION, YES, answeredOnItsOwn } from "./support/hitl";
import { MODERN, TASKS, modern, resultOf, startTask } from "./support/modern";
import { until } from "../until";

type Answer = {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
};
interface Said {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface Listed {
  name: string;
  description?: string;
  outputSchema?: unknown;
}
interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<{ tools: Listed[] }>;
  getInstructions(): string | undefined;
}

// An 8 s inline wait, on mcp-2026-tasks.test.ts's server: it lists no task of alice's (support/server-settings.ts).
const server = sharedServer(MIDDLE_INLINE_VARS);
const auth = { Authorization: "Bearer alice-token" };
const clients: { close(): Promise<void> }[] = [];
// The line the listing adds to a task-capable tool's description (src/protocol/instructions.ts).
const LONG_CALL_LINE = new RegExp(
  ' If a call takes more than a few seconds, it keeps running in the background and answers "Still running" with a taskId ' +
    "instead of its result: then call task_result with that taskId when the answer says \\(not this tool again\\)\\.$",
);
const TASK_ONLY_LINE =
  / It always runs in the background as a task, so it needs a client that supports MCP tasks; such a client brings/;
const MODEL_ERA = ["2025-11-25 (SDK v1 Client)", "2026-07-28 (SDK v2 Client)"] as const;
type Era = (typeof MODEL_ERA)[number];

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

/** A client of `era` that answers every question with `answer` (or declares no elicitation), after listing the tools. */
async function connect(era: Era, answer?: Answer): Promise<AnyClient> {
  if (era === MODEL_ERA[0]) {
    const client = new Client(
      { name: "model-facing", version: "1" },
      { capabilities: answer ? { elicitation: {} } : {} },
    );
    if (answer) client.setRequestHandler(ElicitRequestSchema, async () => answer);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: auth } }),
    );
    clients.push(client);
    // Listing caches the outputSchemas: from here on the client rejects a result that does not conform.
    await client.listTools();
    return {
      callTool: (params) => client.callTool(params, undefined, { timeout: 60_000 }),
      listTools: () => client.listTools(),
      getInstructions: () => client.getInstructions(),
    };
  }
  const client = new V2Client(
    { name: "model-facing", version: "1" },
    { versionNegotiation: { mode: { pin: MODERN } }, ...(answer && { capabilities: { elicitation: {} } }) },
  );
  if (answer) client.setRequestHandler("elicitation/create", async () => answer);
  await client.connect(new V2Transport(new URL(`${server.url}/mcp`), { requestInit: { headers: auth } }));
  clients.push(client);
  await client.listTools();
  return {
    callTool: (params) => client.callTool(params, { timeout: 60_000 }),
    listTools: () => client.listTools(),
    getInstructions: () => client.getInstructions(),
  };
}

const isSaid = (value: unknown): value is Said =>
  typeof value === "object" && value !== null && "content" in value && Array.isArray(value.content);
const said = (value: unknown): Said => {
  if (!isSaid(value)) throw new Error(`not a tool result: ${JSON.stringify(value)}`);
  return value;
};
const textOf = (result: Said): string =>
  result.content.flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : [])).join("\n");

/** One meaning: the structured object holds the sentences, and the text is exactly them. Returns the summary. */
function oneMeaning(
  expect: ExpectStatic,
  value: unknown,
): { summary: string; next?: string; data: Record<string, unknown> } {
  const result = said(value);
  const data = result.structuredContent ?? {};
  const summary = data["summary"];
  const next = data["next"];
  expect(typeof summary, JSON.stringify(result)).toBe("string");
  const sentences = typeof next === "string" ? `${String(summary)} ${next}` : String(summary);
  expect(textOf(result)).toBe(sentences);
  expect(JSON.stringify(data)).toContain(JSON.stringify(summary).slice(1, -1));
  return { summary: String(summary), ...(typeof next === "string" && { next }), data };
}

// Concurrent: each test connects its own client and starts its own tasks, and most of the file's time
// is two 34 s waits on the server's clocks (8 s inline, then task_result's 25 s), which overlap so.
for (const era of MODEL_ERA) {
  describe.concurrent(`model-facing results, ${era}`, () => {
    it("every tool declares an outputSchema that requires the summary", async ({ expect }) => {
      const { tools } = await (await connect(era)).listTools();
      for (const tool of tools)
        expect(tool.outputSchema, tool.name).toMatchObject({
          type: "object",
          properties: { summary: { type: "string" } },
        });
    });

    it("each task-capable tool's description says in one line how long calls work (clients drop instructions)", async ({
      expect,
    }) => {
      const { tools } = await (await connect(era)).listTools();
      // By name: the SDK v2 Client keeps no execution.taskSupport in what it hands back.
      const listed = (name: string) => tools.find((tool) => tool.name === name)?.description;
      for (const name of ["countdown", "batch_process", "deploy", "publish_report", "external_job"])
        expect(listed(name), name).toMatch(LONG_CALL_LINE);
      expect(listed("build_report")).toMatch(TASK_ONLY_LINE);
      for (const name of ["echo", "task_status", "task_result", "task_cancel", "task_input"])
        expect(listed(name), name).not.toMatch(LONG_CALL_LINE);
    });

    it("a quick tool and a task-capable tool that finishes inline say their own words in both parts", async ({
      expect,
    }) => {
      const client = await connect(era);
      expect(oneMeaning(expect, await client.callTool({ name: "echo", arguments: { text: "hello" } })).summary).toBe(
        "hello",
      );
      expect(oneMeaning(expect, await client.callTool({ name: "countdown", arguments: { seconds: 1 } })).summary).toBe(
        "Countdown of 1 s finished.",
      );
      const batch = oneMeaning(
        expect,
        await client.callTool({ name: "batch_process", arguments: { items: 2, secondsPerItem: 0 } }),
      );
      expect(batch).toMatchObject({ summary: "Processed 2 items.", data: { items: 2, checksum: 5 } });
    });

    it("the still-running fallback conforms to the tool's outputSchema and says it is not the result and when to call task_result", async ({
      expect,
    }) => {
      const client = await connect(era);
      const fallback = oneMeaning(expect, await client.callTool({ name: "countdown", arguments: { seconds: 60 } }));
      const taskId = String(fallback.data["taskId"]);
      expect(fallback.summary).toMatch(
        new RegExp(
          `^Still running: "countdown" continues in the background as task ${taskId} \\(\\d+ of 60, about \\d+ s left\\)\\. This is not its result\\.$`,
        ),
      );
      expect(fallback.next).toMatch(
        new RegExp(`^Call task_result with taskId "${taskId}" in about \\d+ s to get the result;`),
      );
      // Self-contained, for clients that hand their model no instructions.
      expect(fallback.next).toMatch(/ Calling "countdown" again would start a second run\.$/);
      // What only the card needs is not in the model's part.
      expect(Object.keys(fallback.data).sort()).toEqual(expect.arrayContaining(["status", "taskId"]));
      for (const viewOnly of ["pollInterval", "createdAt", "ttl", "inputRequests"])
        expect(fallback.data).not.toHaveProperty(viewOnly);

      const status = oneMeaning(expect, await client.callTool({ name: "task_status", arguments: { taskId } }));
      expect(status.summary).toMatch(new RegExp(`^Task ${taskId} \\("countdown"\\) is still running`));
      expect(status.next).toContain("task_result");
      // 60 s outlasts the inline wait (8 s) and task_result's wait (25 s) together.
      const notYet = oneMeaning(expect, await client.callTool({ name: "task_result", arguments: { taskId } }));
      expect(notYet.summary).toMatch(/^Not the result yet: /);
      const cancelled = oneMeaning(expect, await client.callTool({ name: "task_cancel", arguments: { taskId } }));
      expect(cancelled.summary).toBe(`Cancelled task ${taskId} ("countdown"); it will not finish and has no result.`);
    });

    it("task_result of a finished task gives the tool's own words", async ({ expect }) => {
      const client = await connect(era);
      // It outlasts the inline wait (8 s); task_result waits up to 25 s more for it.
      const fallback = oneMeaning(expect, await client.callTool({ name: "countdown", arguments: { seconds: 10 } }));
      const result = oneMeaning(
        expect,
        await client.callTool({ name: "task_result", arguments: { taskId: String(fallback.data["taskId"]) } }),
      );
      expect(result.summary).toBe("Countdown of 10 s finished.");
      expect(result.data).toMatchObject({ status: "completed" });
    });

    it("deploy says Deployed on yes and Not deployed, with the reason, on no", async ({ expect }) => {
      const yes = oneMeaning(
        expect,
        await (await connect(era, { action: "accept", content: { confirm: true } })).callTool({
          name: "deploy",
          arguments: DEPLOY,
        }),
      );
      expect(yes).toMatchObject({ summary: "Deployed api v2 to production in 3 steps.", data: { deployed: true } });
      // A decline at once is the client's own (docs/human-in-the-loop.md, "Who answered"): a person's is in who-answered.test.ts.
      const no = oneMeaning(
        expect,
        await (await connect(era, { action: "decline" })).callTool({ name: "deploy", arguments: DEPLOY }),
      );
      expect(no).toMatchObject({
        summary: answeredOnItsOwn("declined"),
        data: { deployed: false, action: "decline", automatic: true },
      });
    });

    it("a task-only tool from a client that cannot follow tasks is refused in one sentence to relay", async ({
      expect,
    }) => {
      // The SDK v1 Client refuses such a call itself once it has listed the tools: ask the server with one that has not.
      const client = era === MODEL_ERA[0] ? await connectClient(server.url, { headers: auth }) : await connect(era);
      if (client instanceof Client) clients.push(client);
      await expect(client.callTool({ name: "build_report", arguments: { pages: 1 } })).rejects.toThrow(
        'Not started: "build_report" runs only as a background task, and this client cannot follow background tasks. Run it from a client that supports MCP tasks (for example interactive Claude Code).',
      );
    });

    it("the instructions speak to a model: the check-back tools, and no wire methods", async ({ expect }) => {
      const instructions = (await connect(era)).getInstructions() ?? "";
      for (const word of ["task_result", "task_status", "task_input", "Still running", "This is not its result"])
        expect(instructions).toContain(word);
      expect(instructions).not.toMatch(
        /tasks\/|subscriptions\/|tools\/call|_meta|resultType|elicitation|io\.modelcontextprotocol/,
      );
    });
  });
}

describe.concurrent("a question nobody can answer", () => {
  it("2026: a plain call from a client that cannot ask anyone shows the question and how a person can answer", async ({
    expect,
  }) => {
    const client = await connect(MODEL_ERA[1]);
    const waiting = oneMeaning(expect, await client.callTool({ name: "deploy", arguments: DEPLOY }));
    const taskId = String(waiting.data["taskId"]);
    expect(waiting.summary).toBe(
      `Waiting for a person: "deploy" (task ${taskId}) asks "${QUESTION}". This is not its result.`,
    );
    expect(waiting.next).toContain("task_input");
    expect(waiting.next).toContain(`${server.url}/tasks/${taskId}/input`);
    expect(waiting.next).toContain(`task console at ${server.url}/`);
    // A person answers through the model (task_input); the result then reads as the tool's own.
    oneMeaning(
      expect,
      await client.callTool({ name: "task_input", arguments: { taskId, inputResponses: { confirm: YES } } }),
    );
    const done = oneMeaning(expect, await client.callTool({ name: "task_result", arguments: { taskId } }));
    expect(done.summary).toBe("Deployed api v2 to production in 3 steps.");
  });

  for (const era of MODEL_ERA) {
    it(`${era}: a cancel at once (claude -p) ends the job with Not deployed, says the client answered on its own and what a person can do`, async ({
      expect,
    }) => {
      const client = await connect(era, { action: "cancel" });
      const ended = oneMeaning(expect, await client.callTool({ name: "deploy", arguments: DEPLOY }));
      expect(ended.summary).toBe(answeredOnItsOwn("cancelled"));
      expect(ended.data).toMatchObject({ deployed: false, action: "cancel", automatic: true });
    });
  }
});

describe.concurrent("2026 tasks/get", () => {
  it("inlines the finished result with its words in structuredContent and text alike", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, { token: "alice-token" });
    const task = await vi.waitFor(async () => {
      const seen = resultOf(
        await modern(server.url, "tasks/get", { taskId }, { capabilities: TASKS, token: "alice-token" }),
      );
      if (seen["status"] !== "completed") throw new Error(`still ${String(seen["status"])}`);
      return seen;
    }, until(200));
    expect(oneMeaning(expect, task["result"]).summary).toBe("Countdown of 1 s finished.");
  });
});
