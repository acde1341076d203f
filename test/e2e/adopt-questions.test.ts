// An adopter's durable tool that asks a question (test/fixtures/adopter: createMcpHandler with
// principals from bearer tokens): answered through 2026-07-28 tasks/update and through
// POST /tasks/{id}/input; another principal can neither read, answer nor cancel it; a caller the
// adopter's principal() does not know is refused before any task is touched; a fan-out without a
// STEPS binding fails its task naming it.
import { describe, expect, it, vi } from "vitest";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { errorOf, getTask, modern, resultOf, startTask, TASKS } from "./support/modern";
import { taskResponse } from "./support/tasks";
import { until } from "../until";

const server = ownServer(async () => ({ config: await adopterConfig("test/fixtures/adopter") }));
const ALICE = "alice-token";
const BOB = "bob-token";
const YES = { decision: { action: "accept", content: { approve: true } } };

async function waitingTask(change: string): Promise<string> {
  const taskId = await startTask(server.url, "approve", { change }, { token: ALICE });
  await vi.waitFor(async () => {
    expect((await getTask(server.url, taskId, { token: ALICE }))["status"]).toBe("input_required");
  }, until(100));
  return taskId;
}

const finalText = async (taskId: string): Promise<string> => {
  let text = "";
  await vi.waitFor(async () => {
    const task = await getTask(server.url, taskId, { token: ALICE });
    expect(task["status"]).toBe("completed");
    text = JSON.stringify(task["result"]);
  }, until(100));
  return text;
};

describe("a question inside a durable tool", () => {
  it("tasks/get shows it as inputRequests, and tasks/update answers it", async () => {
    const taskId = await waitingTask("the schema");
    const task = await getTask(server.url, taskId, { token: ALICE });
    expect(task).toMatchObject({
      statusMessage: "Approve the schema?",
      inputRequests: { decision: { method: "elicitation/create" } },
    });
    const updated = await modern(
      server.url,
      "tasks/update",
      { taskId, inputResponses: YES },
      { capabilities: TASKS, token: ALICE },
    );
    expect(updated.status).toBe(200);
    expect(await finalText(taskId)).toContain("Approved the schema.");
  });

  it("POST /tasks/{id}/input answers it over plain HTTP", async () => {
    const taskId = await waitingTask("the index");
    const response = await fetch(`${server.url}/tasks/${taskId}/input`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${ALICE}` },
      body: JSON.stringify({ decision: { action: "decline" } }),
    });
    expect(response.status).toBe(200);
    expect(await finalText(taskId)).toContain("Not approved: the index.");
  });
});

describe("principals from the adopter's auth", () => {
  it("another principal can neither read, answer nor cancel the task", async () => {
    const taskId = await waitingTask("the firewall");
    expect(errorOf(await modern(server.url, "tasks/get", { taskId }, { capabilities: TASKS, token: BOB })).code).toBe(
      -32602,
    );
    expect((await taskResponse(server.url, taskId, { Authorization: `Bearer ${BOB}` })).status).toBe(404);
    const answered = await fetch(`${server.url}/tasks/${taskId}/input`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${BOB}` },
      body: JSON.stringify(YES),
    });
    expect(answered.status).toBe(404);
    expect(
      errorOf(await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, token: BOB })).code,
    ).toBe(-32602);
    // Still Alice's, still waiting.
    expect((await getTask(server.url, taskId, { token: ALICE }))["status"]).toBe("input_required");
  });

  it("a caller principal() does not know is refused with 401 before any task is created", async () => {
    const reply = await modern(
      server.url,
      "tools/call",
      { name: "countdown", arguments: { seconds: 1 } },
      { capabilities: TASKS },
    );
    expect(reply.status).toBe(401);
    // On /mcp a refusal is a JSON-RPC error; its slug rides in error.data.
    expect(JSON.parse(reply.text)).toMatchObject({ jsonrpc: "2.0", error: { data: { error: "unauthenticated" } } });
  });

  it("refuses a task request from another site's page, and lets a browser read the engine's answers", async () => {
    const foreign = await modern(
      server.url,
      "tasks/get",
      { taskId: "0123456789abcdef0123456789abcdef" },
      {
        capabilities: TASKS,
        token: ALICE,
        headers: { Origin: "https://evil.example" },
      },
    );
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text)).toMatchObject({ error: { data: { error: "origin_not_allowed" } } });
    const own = await modern(
      server.url,
      "tasks/get",
      { taskId: "0123456789abcdef0123456789abcdef" },
      {
        capabilities: TASKS,
        token: ALICE,
        headers: { Origin: server.url },
      },
    );
    expect(own.headers.get("Access-Control-Allow-Origin")).toBe("*");
  });

  it("the adopter's own tools are untouched by it: echo answers without a token", async () => {
    expect(resultOf(await modern(server.url, "tools/call", { name: "echo", arguments: { text: "hi" } }))).toMatchObject(
      {
        content: [{ type: "text", text: "hi" }],
      },
    );
  });
});

describe("a fan-out in a Worker that binds no STEPS queue", () => {
  it("ends its task at once with an error naming the binding to add, instead of waiting on a send that cannot succeed", async () => {
    const taskId = await startTask(server.url, "double_all", {}, { token: ALICE });
    await vi.waitFor(async () => {
      const task = await getTask(server.url, taskId, { token: ALICE });
      // A tool's failure ends its 2026 task with an isError result the model reads (not status "failed").
      expect(task).toMatchObject({ status: "completed", result: { isError: true } });
      expect(JSON.stringify(task)).toContain("job.fanOut needs the STEPS queue, which this Worker does not bind");
    }, until(100));
  });
});

describe("a wrangler config that misnames a binding", () => {
  // PRINCIPALS bound as PRINCIPAL: the Worker starts, its own tools work, task requests say what to fix.
  const misnamed = ownServer(async () => ({
    config: await adopterConfig("test/fixtures/adopter", (config) => ({
      ...config,
      durable_objects: {
        bindings: [
          { name: "TASKS", class_name: "TaskObject" },
          { name: "PRINCIPAL", class_name: "PrincipalObject" },
        ],
      },
    })),
  }));

  it("answers the first task request with a 503 naming the binding and the line to add, never a stack trace", async () => {
    const reply = await modern(
      misnamed.url,
      "tools/call",
      { name: "countdown", arguments: { seconds: 1 } },
      {
        capabilities: TASKS,
        token: ALICE,
      },
    );
    expect(reply.status).toBe(503);
    const body = JSON.parse(reply.text) as { error: { message: string; data: { error: string } } };
    expect(body.error.data.error).toBe("bindings_missing");
    expect(body.error.message).toContain(
      'Missing binding PRINCIPALS (PrincipalObject): add { "name": "PRINCIPALS", "class_name": "PrincipalObject" }',
    );
    expect(body.error.message).toContain("is one of them meant to be PRINCIPALS?");
    expect(body.error.message).not.toMatch(/\n\s+at /);
  });

  it("still serves the adopter's own tools", async () => {
    const reply = await modern(misnamed.url, "tools/call", { name: "echo", arguments: { text: "hi" } });
    expect(resultOf(reply)).toMatchObject({ content: [{ type: "text", text: "hi" }] });
  });
});
