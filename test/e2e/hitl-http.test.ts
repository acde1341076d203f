// Human in the loop over plain HTTP and for clients with neither tasks nor elicitation, on the real
// runtime: GET /tasks/{id} shows the question, POST /tasks/{id}/input answers it, the fallback text
// shows it and task_input passes an answer on; two principals, cancel while waiting, late answers.
import { beforeAll, describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { NO_INLINE_END_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { openSse } from "./support/sse-reader";
import {
  DEPLOY,
  postInput,
  QUESTION,
  startDeploy,
  stepNames,
  taskDoc,
  textOf,
  waitForStatus,
  YES,
} from "./support/hitl";

// Shared with deep-input.test.ts, whose principal is its own (support/server-settings.ts).
const server = sharedServer(NO_INLINE_END_VARS);
const alice = { Authorization: "Bearer tokA" };
const bob = { Authorization: "Bearer tokB" };

beforeAll(async () => {
  // An inline budget far past the test timeout: a plain call that waited for an answer would time out.
  // Jobs start on their queue message (about a second locally), not at once from the alarm, so a
  // stream opened right after a task is created is open before the task asks.
});

describe("GET /tasks/{id} and POST /tasks/{id}/input", () => {
  it("shows the pending question as inputRequests with the deploy form", async ({ expect }) => {
    const taskId = await startDeploy(server.url, alice);
    const doc = await waitForStatus(server.url, taskId, "input_required", alice);
    expect(doc.statusMessage).toBe(QUESTION);
    expect(doc.inputRequests).toEqual({
      confirm: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: QUESTION,
          requestedSchema: {
            type: "object",
            properties: {
              confirm: expect.objectContaining({ type: "boolean" }),
              note: expect.objectContaining({ type: "string" }),
            },
            required: ["confirm"],
          },
        },
      },
    });
  });

  it("answers with a JSON body; the job resumes, rolls out once with progress and says Deployed", async ({
    expect,
  }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    const answered = await postInput(
      server.url,
      taskId,
      { confirm: { action: "accept", content: { confirm: true, note: "from a script" } } },
      alice,
    );
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ accepted: ["confirm"], ignored: [] });
    const done = await waitForStatus(server.url, taskId, "completed", alice);
    expect(textOf(done.result)).toMatch(/^Deployed api v2/);
    expect(done.progress).toMatchObject({ progress: 3, total: 3 });
    expect(done.inputRequests).toBeUndefined();
    expect(await stepNames(server.url, taskId, alice)).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
  });

  it("completes with Not deployed on decline, cancel or confirm false, as a normal result", async ({ expect }) => {
    for (const answer of [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { confirm: false } },
    ]) {
      const taskId = await startDeploy(server.url, alice);
      await waitForStatus(server.url, taskId, "input_required", alice);
      expect((await postInput(server.url, taskId, { confirm: answer }, alice)).status).toBe(200);
      const done = await waitForStatus(server.url, taskId, "completed", alice);
      expect(textOf(done.result)).toContain("Not deployed");
      expect(done.result?.isError).toBeFalsy();
    }
  });

  it("refuses an answer that breaks the form with 422 naming the field, and the task keeps waiting", async ({
    expect,
  }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    const refused = await postInput(
      server.url,
      taskId,
      { confirm: { action: "accept", content: { confirm: "yes" } } },
      alice,
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: "invalid_answer",
      key: "confirm",
      message: expect.stringContaining('"confirm"'),
    });
    const missing = await postInput(
      server.url,
      taskId,
      { confirm: { action: "accept", content: { note: "no confirm" } } },
      alice,
    );
    expect(missing.status).toBe(422);
    expect(String(missing.body["message"])).toContain('field "confirm" is required');
    expect((await taskDoc(server.url, taskId, alice)).status).toBe("input_required");
    expect((await postInput(server.url, taskId, { confirm: YES }, alice)).status).toBe(200);
    await waitForStatus(server.url, taskId, "completed", alice);
  });

  it("refuses bodies that are not answers with 400 and other media types with 415", async ({ expect }) => {
    const taskId = await startDeploy(server.url, alice);
    for (const body of [[], "yes", {}, null])
      expect((await postInput(server.url, taskId, body, alice)).status).toBe(400);
    const raw = await fetch(`${server.url}/tasks/${taskId}/input`, {
      method: "POST",
      headers: { ...alice, "Content-Type": "application/json" },
      body: "{nope",
    });
    expect(raw.status).toBe(400);
    const text = await fetch(`${server.url}/tasks/${taskId}/input`, {
      method: "POST",
      headers: { ...alice, "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(text.status).toBe(415);
    expect((await fetch(`${server.url}/tasks/${taskId}/input`, { headers: alice })).status).toBe(405);
  });

  it("ignores keys no question waits on and says so", async ({ expect }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    const ignored = await postInput(server.url, taskId, { nope: YES }, alice);
    expect(ignored).toMatchObject({ status: 200, body: { accepted: [], ignored: ["nope"] } });
    expect((await taskDoc(server.url, taskId, alice)).status).toBe("input_required");
  });
});

describe("two principals", () => {
  it("another principal can neither see nor answer the question: 404, exactly as for an unknown task", async ({
    expect,
  }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    expect((await fetch(`${server.url}/tasks/${taskId}`, { headers: bob })).status).toBe(404);
    const foreign = await postInput(server.url, taskId, { confirm: YES }, bob);
    const unknown = await postInput(server.url, "0".repeat(32), { confirm: YES }, bob);
    expect(foreign).toEqual(unknown);
    expect(foreign.status).toBe(404);
    const tool = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "task_input", arguments: { taskId, inputResponses: { confirm: YES } } },
      },
      { headers: bob },
    );
    const toolUnknown = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "task_input", arguments: { taskId: "0".repeat(32), inputResponses: { confirm: YES } } },
      },
      { headers: bob },
    );
    const last = (reply: { body: unknown }) =>
      (Array.isArray(reply.body) ? reply.body.at(-1) : reply.body) as {
        result?: { isError?: boolean; content?: { type: string; text?: string }[] };
      };
    expect(last(tool).result?.isError).toBe(true);
    expect(textOf(last(tool).result)).toBe(
      textOf(last(toolUnknown).result).replace("0".repeat(32), taskId.slice(0, 64)),
    );
    expect((await taskDoc(server.url, taskId, alice)).status).toBe("input_required");
  });
});

describe("cancelled or finished while waiting", () => {
  it("a task cancelled while it waits ends cleanly, and a late answer gets a clear 409", async ({ expect }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    const cancelled = await fetch(`${server.url}/tasks/${taskId}/cancel`, { method: "POST", headers: alice });
    expect(cancelled.status).toBe(200);
    const doc = await taskDoc(server.url, taskId, alice);
    expect(doc.status).toBe("cancelled");
    expect(doc.inputRequests).toBeUndefined();
    const late = await postInput(server.url, taskId, { confirm: YES }, alice);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: "task_finished", message: expect.stringContaining("cancelled") });
    expect(await stepNames(server.url, taskId, alice)).toEqual(["plan"]);
  });
});

describe("a client with neither tasks nor elicitation", () => {
  it("gets the still-running fallback at once, with the question and how to answer it, and task_input passes the answer on", async ({
    expect,
  }) => {
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: DEPLOY } },
      { headers: { ...alice, Accept: "application/json" } },
    );
    const result = (
      reply.body as {
        result: {
          content: { type: string; text?: string }[];
          structuredContent: { taskId: string; status: string; summary: string };
          _meta: { "mcp-task-worker/task": { inputRequests?: Record<string, unknown> } };
        };
      }
    ).result;
    // It came back without waiting out the inline budget (10 min) for an answer nobody on this call can give.
    const text = textOf(result);
    expect(text).toContain(QUESTION);
    expect(text).toContain("task_input");
    expect(text).toContain("confirm (boolean, required)");
    const { taskId } = result.structuredContent;
    expect(result.structuredContent.status).toBe("input_required");
    // The question reaches the model in the sentence; the card's data (the form) rides in _meta.
    expect(result.structuredContent.summary).toContain(QUESTION);
    expect(result._meta["mcp-task-worker/task"].inputRequests).toHaveProperty("confirm");

    const bad = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "task_input",
          arguments: { taskId, inputResponses: { confirm: { action: "accept", content: {} } } },
        },
      },
      { headers: { ...alice, Accept: "application/json" } },
    );
    const badResult = (bad.body as { result: { isError?: boolean; content: { type: string; text?: string }[] } })
      .result;
    expect(badResult.isError).toBe(true);
    expect(textOf(badResult)).toContain('"confirm" is required');

    const good = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "task_input", arguments: { taskId, inputResponses: { confirm: YES } } },
      },
      { headers: { ...alice, Accept: "application/json" } },
    );
    const goodResult = (good.body as { result: { isError?: boolean; content: { type: string; text?: string }[] } })
      .result;
    expect(goodResult.isError).toBeUndefined();
    expect(textOf(goodResult)).toContain('Passed on the answer to "confirm"');
    const done = await waitForStatus(server.url, taskId, "completed", alice);
    expect(textOf(done.result)).toMatch(/^Deployed/);

    const late = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "task_input", arguments: { taskId, inputResponses: { confirm: YES } } },
      },
      { headers: { ...alice, Accept: "application/json" } },
    );
    const lateResult = (late.body as { result: { isError?: boolean; content: { type: string; text?: string }[] } })
      .result;
    expect(lateResult.isError).toBe(true);
    expect(textOf(lateResult)).toContain("already completed");
  });

  it("task_status says what the task asks and how to answer", async ({ expect }) => {
    const taskId = await startDeploy(server.url, alice);
    await waitForStatus(server.url, taskId, "input_required", alice);
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "task_status", arguments: { taskId } } },
      { headers: { ...alice, Accept: "application/json" } },
    );
    const result = (
      reply.body as {
        result: {
          content: { type: string; text?: string }[];
          structuredContent: Record<string, unknown>;
          _meta: Record<string, unknown>;
        };
      }
    ).result;
    expect(textOf(result)).toContain(QUESTION);
    expect(textOf(result)).toContain("task_input");
    expect(JSON.stringify(result.structuredContent)).toContain(QUESTION);
    expect(JSON.stringify(result.structuredContent)).toContain("task_input");
    expect(result.structuredContent).toMatchObject({ status: "input_required" });
    expect(result._meta["mcp-task-worker/task"]).toMatchObject({
      status: "input_required",
      inputRequests: { confirm: { method: "elicitation/create" } },
    });
  });
});

/** A raw 2025-11-25 session that declared `capabilities`; the headers to send with it. */
async function rawSession(capabilities: Record<string, unknown>) {
  const init = await rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
    },
    { headers: alice },
  );
  const headers = {
    ...alice,
    "Mcp-Session-Id": init.headers.get("Mcp-Session-Id") ?? "",
    "MCP-Protocol-Version": "2025-11-25",
  };
  await rpc(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { headers });
  return headers;
}

describe("2025-11-25 clients that cannot be asked", () => {
  it("a tasks/result open before the task asks keeps waiting through the question, and ends with the result once someone answers elsewhere", async ({
    expect,
  }) => {
    const headers = await rawSession({});
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "deploy", arguments: DEPLOY, task: { ttl: 600_000 } },
      },
      { headers },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    const stream = await openSse(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } }),
    });
    // Its priming event: the stream is registered and following, and the job has not started yet.
    expect((await stream.next())?.data).toBe("");
    await waitForStatus(server.url, taskId, "input_required", alice);
    expect((await postInput(server.url, taskId, { confirm: YES }, alice)).status).toBe(200);
    const messages: {
      id?: unknown;
      method?: string;
      result?: { content?: { type: string; text?: string }[] };
      error?: unknown;
    }[] = [];
    for (;;) {
      const event = await stream.next();
      if (!event) break;
      if (event.data !== "") messages.push(JSON.parse(event.data) as (typeof messages)[number]);
    }
    const response = messages.at(-1);
    expect(response?.error).toBeUndefined();
    expect(textOf(response?.result)).toMatch(/^Deployed/);
    expect(messages.filter((m) => m.method === "elicitation/create")).toEqual([]);
  });

  it("a plain call answered as JSON gets the fallback at once, even from a client that declared elicitation (no stream to ask it on)", async ({
    expect,
  }) => {
    const headers = await rawSession({ elicitation: {} });
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy", arguments: DEPLOY } },
      { headers: { ...headers, Accept: "application/json" } },
    );
    const result = (
      reply.body as { result: { content: { type: string; text?: string }[]; structuredContent: { status: string } } }
    ).result;
    expect(result.structuredContent.status).toBe("input_required");
    expect(textOf(result)).toContain(QUESTION);
  });
});
