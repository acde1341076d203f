// Human in the loop in 2025-11-25 on the real runtime: the SDK v1 Client with an elicitation handler
// runs deploy end to end through callToolStream (default capabilities, and with tasks declared) and
// through a plain callTool; a tasks/result called after the task asked still carries the question;
// the client's JSON-RPC response, POSTed to /mcp, resumes the task; forged response ids are refused
// like unknown ones; a bad answer is refused naming the field.
import { describe, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { sharedServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import { openSse } from "./support/sse-reader";
import { DEPLOY, QUESTION, startDeploy, stepNames, taskDoc, textOf, waitForStatus, YES } from "./support/hitl";
import { until } from "../until";

const server = sharedServer({ API_KEYS: "alice:tokA,bob:tokB", INLINE_WAIT_MS: "20000" });
const alice = { Authorization: "Bearer tokA" };
const bob = { Authorization: "Bearer tokB" };
const settle = until(100);

/** An SDK v1 client that declared elicitation (and whatever else), answering every question with `answer`; `sent` lists the methods it POSTed. */
async function elicitingClient(
  answer: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>,
  extra: Record<string, unknown> = {},
) {
  const client = new Client({ name: "hitl", version: "1" }, { capabilities: { elicitation: {}, ...extra } });
  const asked: ElicitRequest[] = [];
  const errors: Error[] = [];
  const sent: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request);
    return answer(request);
  });
  client.onerror = (error) => void errors.push(error);
  const recordingFetch: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string") {
      const method = (JSON.parse(init.body) as { method?: string }).method;
      if (method) sent.push(method);
    }
    return fetch(input, init);
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: alice },
      fetch: recordingFetch,
    }),
  );
  return { client, asked, errors, sent };
}

async function deployThroughStream(client: Client) {
  const progress: number[] = [];
  const stream = client.experimental.tasks.callToolStream({ name: "deploy", arguments: DEPLOY }, CallToolResultSchema, {
    task: { ttl: 600_000 },
    onprogress: (p) => void progress.push(p.progress),
  });
  let result: CallToolResult | undefined;
  let taskId = "";
  for await (const message of stream) {
    if (message.type === "taskCreated") taskId = message.task.taskId;
    if (message.type === "result") result = message.result as CallToolResult;
    if (message.type === "error") throw message.error;
  }
  return { result, progress, taskId };
}

describe("the SDK v1 Client with an elicitation handler, through callToolStream", () => {
  for (const [name, extra] of [
    ["with default capabilities (no tasks)", {}],
    ["with tasks declared", { tasks: { list: {}, cancel: {}, requests: {} } }],
  ] as const) {
    it(`runs deploy end to end ${name}: asked once, rolled out once, every progress value once`, async ({ expect }) => {
      const { client, asked, errors } = await elicitingClient(
        () => ({ action: "accept", content: { confirm: true, note: "sdk" } }),
        extra,
      );
      try {
        const { result, progress, taskId } = await deployThroughStream(client);
        expect(textOf(result)).toMatch(/^Deployed api v2/);
        expect(asked).toHaveLength(1);
        expect(asked[0]?.params).toMatchObject({
          mode: "form",
          message: QUESTION,
          requestedSchema: { required: ["confirm"] },
          _meta: { "io.modelcontextprotocol/related-task": { taskId } },
        });
        await vi.waitFor(() => expect(progress).toEqual([1, 2, 3]), settle);
        expect(await stepNames(server.url, taskId, alice)).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
        expect(errors).toEqual([]);
      } finally {
        await client.close();
      }
    });
  }

  it("asks once when the person answers only after the client called tasks/result (the GET stream had asked already)", async ({
    expect,
  }) => {
    let sentMethods: string[] = [];
    const { client, asked, errors, sent } = await elicitingClient(async () => {
      // A person who takes their time: the client meanwhile sees input_required and calls tasks/result.
      await vi.waitFor(() => expect(sentMethods).toContain("tasks/result"), settle);
      return { action: "accept", content: { confirm: true } };
    });
    sentMethods = sent;
    try {
      const { result, progress } = await deployThroughStream(client);
      expect(textOf(result)).toMatch(/^Deployed api v2/);
      expect(asked).toHaveLength(1);
      expect(progress).toEqual([1, 2, 3]);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("completes with Not deployed when the person declines", async ({ expect }) => {
    const { client, asked } = await elicitingClient(() => ({ action: "decline" }));
    try {
      const { result, taskId } = await deployThroughStream(client);
      expect(asked).toHaveLength(1);
      expect(textOf(result)).toContain("Not deployed");
      expect(await stepNames(server.url, taskId, alice)).toEqual(["plan"]);
    } finally {
      await client.close();
    }
  });
});

describe("a plain tools/call from a client that declared elicitation", () => {
  it("gets the elicitation/create on its own SSE response stream and the Deployed result inline, with progress", async ({
    expect,
  }) => {
    const { client, asked, errors } = await elicitingClient(() => ({ action: "accept", content: { confirm: true } }));
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: "deploy", arguments: DEPLOY }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
        timeout: 60_000,
      });
      expect(textOf(result as CallToolResult)).toMatch(/^Deployed api v2/);
      expect(asked).toHaveLength(1);
      expect(progress).toEqual([1, 2, 3]);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

/** A raw session with the given capabilities: its id and the headers to send with it. */
async function rawSession(capabilities: Record<string, unknown>, auth = alice) {
  const init = await rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
    },
    { headers: auth },
  );
  const sessionId = init.headers.get("Mcp-Session-Id") ?? "";
  const headers = { ...auth, "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" };
  await rpc(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { headers });
  return { sessionId, headers };
}

describe("tasks/result called after the task asked", () => {
  it("carries the pending elicitation/create; the response POSTed to /mcp resumes the task and the stream ends with the result", async ({
    expect,
  }) => {
    const { headers } = await rawSession({ elicitation: {} });
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "deploy", arguments: DEPLOY, task: { ttl: 600_000 }, _meta: { progressToken: "dp" } },
      },
      { headers },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    // No GET stream is open, so nobody heard the question live.
    await waitForStatus(server.url, taskId, "input_required", alice);
    const stream = await openSse(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } }),
    });
    const messages: {
      id?: unknown;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
    }[] = [];
    let question: (typeof messages)[number] | undefined;
    while (!question) {
      const event = await stream.next();
      if (!event) throw new Error("the stream ended without the question");
      if (event.data === "") continue;
      const message = JSON.parse(event.data) as (typeof messages)[number];
      messages.push(message);
      if (message.method === "elicitation/create") question = message;
    }
    expect(question.id).toBe(`input/${taskId}/confirm`);
    expect(question.params).toMatchObject({
      message: QUESTION,
      _meta: { "io.modelcontextprotocol/related-task": { taskId } },
    });
    const answer = await rpc(server.url, { jsonrpc: "2.0", id: question.id, result: YES }, { headers });
    expect(answer.status).toBe(202);
    for (;;) {
      const event = await stream.next();
      if (!event) break;
      if (event.data !== "") messages.push(JSON.parse(event.data) as (typeof messages)[number]);
    }
    const response = messages.at(-1);
    expect(response?.id).toBe(2);
    expect(textOf(response?.result as CallToolResult)).toMatch(/^Deployed/);
    expect(messages.filter((m) => m.method === "notifications/progress").map((m) => m.params?.["progress"])).toEqual([
      1, 2, 3,
    ]);
    expect(messages.filter((m) => m.method === "elicitation/create")).toHaveLength(1);
  });
});

describe("answers POSTed to /mcp", () => {
  it("refuse an answer that breaks the form with -32602 naming the field; the task keeps waiting", async ({
    expect,
  }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: `input/${taskId}/confirm`, result: { action: "accept", content: { confirm: 1 } } },
      { headers: alice },
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: -32602, message: expect.stringContaining('"confirm"') } });
    expect((await taskDoc(server.url, taskId, alice)).status).toBe("input_required");
  });

  it("refuse a response id forged onto another principal's task exactly like one naming no task, and the task keeps waiting", async ({
    expect,
  }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    const forged = await rpc(
      server.url,
      { jsonrpc: "2.0", id: `input/${taskId}/confirm`, result: YES },
      { headers: bob },
    );
    const unknown = await rpc(
      server.url,
      { jsonrpc: "2.0", id: `input/${"0".repeat(32)}/confirm`, result: YES },
      { headers: bob },
    );
    expect(forged.status).toBe(400);
    expect({ status: forged.status, body: forged.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect((await taskDoc(server.url, taskId, alice)).status).toBe("input_required");
  });

  it("ignore an answer to a question already answered, and refuse one to a finished task with a clear error", async ({
    expect,
  }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    // Accepted, the rollout takes about 3 s: the second answer meets a task that is still running.
    expect(
      (await rpc(server.url, { jsonrpc: "2.0", id: `input/${taskId}/confirm`, result: YES }, { headers: alice }))
        .status,
    ).toBe(202);
    expect(
      (
        await rpc(
          server.url,
          { jsonrpc: "2.0", id: `input/${taskId}/confirm`, result: { action: "decline" } },
          { headers: alice },
        )
      ).status,
    ).toBe(202);
    const done = await waitForStatus(server.url, taskId, "completed", alice);
    expect(textOf(done.result)).toMatch(/^Deployed/);
    const late = await rpc(
      server.url,
      { jsonrpc: "2.0", id: `input/${taskId}/confirm`, result: YES },
      { headers: alice },
    );
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: { message: expect.stringContaining("already completed") } });
  });
});
