// Human in the loop in 2026-07-28 on the real runtime: with the Tasks extension, tasks/get shows the
// question as inputRequests, tasks/update answers it (bad answers -32602 naming the field, unknown
// keys ignored, late answers a clear error), subscriptions/listen shows it, and the ext-tasks
// requester runs deploy end to end; without the extension, a plain tools/call answers
// input_required with a requestState that a retry continues (the SDK v2 client does it on its own),
// forged or foreign states are refused like unknown ones; a client that declared neither gets the
// fallback with the question.
import { afterAll, describe, it, vi } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from "@modelcontextprotocol/ext-tasks/client";
import { sharedServer } from "./support/dev-server";
import { DEPLOY, QUESTION, stepNames, taskDoc, textOf, waitForStatus, YES } from "./support/hitl";
import {
  CLIENT_INFO,
  MODERN,
  connectV2,
  errorOf,
  getTask,
  modern,
  openStream,
  rawDispatch,
  resultOf,
  startTask,
  TASKS,
} from "./support/modern";
import { until } from "../until";

const ALICE = "tokA";
const BOB = "tokB";
const server = sharedServer({ API_KEYS: `alice:${ALICE},bob:${BOB}`, INLINE_WAIT_MS: "20000" });
const aliceHeaders = { Authorization: `Bearer ${ALICE}` };
const ELICIT = { elicitation: {} };
const settle = until(100);
const v2Clients: Client[] = [];

afterAll(async () => {
  for (const client of v2Clients) await client.close().catch(() => undefined);
});

async function waitingTask(): Promise<string> {
  const taskId = await startTask(server.url, "deploy", DEPLOY, { token: ALICE });
  await vi.waitFor(async () => {
    const task = await getTask(server.url, taskId, { token: ALICE });
    if (task["status"] !== "input_required") throw new Error(`still ${String(task["status"])}`);
  }, settle);
  return taskId;
}

const update = (taskId: string, inputResponses: unknown, token = ALICE) =>
  modern(server.url, "tasks/update", { taskId, inputResponses }, { capabilities: TASKS, token });

describe("with the Tasks extension", () => {
  it("tasks/get shows input_required with the question as inputRequests", async ({ expect }) => {
    const taskId = await waitingTask();
    const task = await getTask(server.url, taskId, { token: ALICE });
    expect(task).toMatchObject({ resultType: "complete", status: "input_required", statusMessage: QUESTION });
    expect(task["inputRequests"]).toEqual({
      confirm: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: QUESTION,
          requestedSchema: expect.objectContaining({
            type: "object",
            required: ["confirm"],
            properties: expect.objectContaining({ confirm: expect.objectContaining({ type: "boolean" }) }),
          }),
        },
      },
    });
  });

  it("tasks/update refuses an answer that breaks the form with -32602 naming the field, ignores unknown keys, then takes a valid one", async ({
    expect,
  }) => {
    const taskId = await waitingTask();
    const bad = errorOf(await update(taskId, { confirm: { action: "accept", content: { confirm: "yes" } } }));
    expect(bad.code).toBe(-32602);
    expect(bad.message).toContain('"confirm"');
    expect(await getTask(server.url, taskId, { token: ALICE })).toMatchObject({ status: "input_required" });
    expect(resultOf(await update(taskId, { nope: { action: "accept", content: { confirm: true } } }))).toMatchObject({
      resultType: "complete",
    });
    expect(await getTask(server.url, taskId, { token: ALICE })).toMatchObject({ status: "input_required" });
    expect(resultOf(await update(taskId, { confirm: YES }))).toMatchObject({ resultType: "complete" });
    await vi.waitFor(
      async () => expect(await getTask(server.url, taskId, { token: ALICE })).toMatchObject({ status: "completed" }),
      settle,
    );
    const done = await getTask(server.url, taskId, { token: ALICE });
    expect(textOf(done["result"] as { content: { type: string; text: string }[] })).toMatch(/^Deployed api v2/);
    expect(await stepNames(server.url, taskId, aliceHeaders)).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
    // Late: the task has ended and takes no answers.
    const late = errorOf(await update(taskId, { confirm: YES }));
    expect(late.code).toBe(-32602);
    expect(late.message).toContain("already completed");
  });

  it("another principal's tasks/get and tasks/update get exactly the unknown task's error", async ({ expect }) => {
    const taskId = await waitingTask();
    const foreign = errorOf(await update(taskId, { confirm: YES }, BOB));
    const unknown = errorOf(await update("0".repeat(32), { confirm: YES }, BOB));
    expect(foreign).toEqual(unknown);
    expect(errorOf(await modern(server.url, "tasks/get", { taskId }, { capabilities: TASKS, token: BOB }))).toEqual(
      errorOf(await modern(server.url, "tasks/get", { taskId: "0".repeat(32) }, { capabilities: TASKS, token: BOB })),
    );
    expect(await getTask(server.url, taskId, { token: ALICE })).toMatchObject({ status: "input_required" });
  });

  it("subscriptions/listen shows the question in notifications/tasks", async ({ expect }) => {
    const taskId = await startTask(server.url, "deploy", DEPLOY, { token: ALICE });
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { taskIds: [taskId] } },
      { capabilities: TASKS, token: ALICE },
    );
    try {
      const tasks = () =>
        stream.messages
          .filter((m) => m["method"] === "notifications/tasks")
          .map((m) => m["params"] as Record<string, unknown>);
      await vi.waitFor(() => expect(tasks().some((t) => t["status"] === "input_required")).toBe(true), settle);
      const waiting = tasks().find((t) => t["status"] === "input_required");
      expect(waiting?.["inputRequests"]).toMatchObject({
        confirm: { method: "elicitation/create", params: { message: QUESTION } },
      });
      resultOf(await update(taskId, { confirm: { action: "decline" } }));
      await vi.waitFor(() => expect(tasks().some((t) => t["status"] === "completed")).toBe(true), settle);
      expect(
        textOf(
          tasks().find((t) => t["status"] === "completed")?.["result"] as { content: { type: string; text: string }[] },
        ),
      ).toContain("Not deployed");
    } finally {
      stream.close();
    }
  });

  it("the ext-tasks requester answers through its input handler and runs deploy to completion", async ({ expect }) => {
    const client = await connectV2(server.url, { pin: MODERN }, aliceHeaders);
    v2Clients.push(client);
    const asked: { kind: string; message: unknown; delivery: string }[] = [];
    const tasks = createTaskSessionFromClient(client, {
      endpointId: "e2e-hitl",
      rawDispatch: rawDispatch(server.url, aliceHeaders),
      v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: ELICIT },
      onInputRequest: createApplicationInputHandler({
        elicitation: (request, context) => {
          asked.push({ kind: request.kind, message: request.params["message"], delivery: context.delivery });
          return { action: "accept", content: { confirm: true } };
        },
        sampling: () => Promise.reject(new Error("no sampling here")),
        roots: () => Promise.reject(new Error("no roots here")),
      }),
    });
    try {
      const execution = await tasks.callTool("deploy", DEPLOY);
      expect(execution.kind).toBe("task");
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("completed");
      expect(textOf(resultFromTaskOutcome(outcome) as { content: { type: string; text: string }[] })).toMatch(
        /^Deployed api v2/,
      );
      expect(asked).toEqual([{ kind: "elicitation", message: QUESTION, delivery: "task-update" }]);
    } finally {
      await tasks.close();
    }
  });
});

describe("without the extension: multi round-trip", () => {
  const call = (
    options: {
      token?: string;
      args?: Record<string, unknown>;
      extra?: Record<string, unknown>;
      capabilities?: Record<string, unknown>;
    } = {},
  ) =>
    modern(
      server.url,
      "tools/call",
      { name: "deploy", arguments: options.args ?? DEPLOY, ...options.extra },
      { capabilities: options.capabilities ?? ELICIT, token: options.token ?? ALICE },
    );

  it("answers input_required with the question and a requestState; the retry with the answer continues the same task to its result", async ({
    expect,
  }) => {
    const first = resultOf(await call());
    expect(first["resultType"]).toBe("input_required");
    expect(first["inputRequests"]).toMatchObject({
      confirm: { method: "elicitation/create", params: { mode: "form", message: QUESTION } },
    });
    const requestState = String(first["requestState"]);
    expect(requestState).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

    // A retry without answers is asked again.
    const again = resultOf(await call({ extra: { requestState } }));
    expect(again).toMatchObject({ resultType: "input_required", inputRequests: { confirm: expect.any(Object) } });
    // A retry whose answer breaks the form: -32602 naming the field.
    const bad = errorOf(
      await call({
        extra: { requestState, inputResponses: { confirm: { action: "accept", content: { confirm: "yes" } } } },
      }),
    );
    expect(bad.code).toBe(-32602);
    expect(bad.message).toContain('"confirm"');

    const done = resultOf(await call({ extra: { requestState, inputResponses: { confirm: YES } } }));
    expect(done["resultType"]).toBe("complete");
    expect(textOf(done as { content: { type: string; text: string }[] })).toMatch(/^Deployed api v2/);
  });

  it("refuses a forged, altered or foreign requestState, or one replayed on other arguments, with the same error, and the task keeps waiting", async ({
    expect,
  }) => {
    const first = resultOf(await call());
    const requestState = String(first["requestState"]);
    const [version, body, mac] = requestState.split(".");
    const flipped = `${version}.${body}.${(mac ?? "").startsWith("A") ? `B${(mac ?? "").slice(1)}` : `A${(mac ?? "").slice(1)}`}`;
    const attempts = [
      await call({ extra: { requestState: "v1.e30.AAAA", inputResponses: { confirm: YES } } }),
      await call({ extra: { requestState: flipped, inputResponses: { confirm: YES } } }),
      await call({ token: BOB, extra: { requestState, inputResponses: { confirm: YES } } }),
      await call({
        args: { service: "api", version: "v3" },
        extra: { requestState, inputResponses: { confirm: YES } },
      }),
    ];
    const errors = attempts.map(errorOf);
    for (const error of errors) expect(error).toEqual(errors[0]);
    expect(errors[0]?.code).toBe(-32602);
    // The state was never accepted: the original call still continues.
    const done = resultOf(await call({ extra: { requestState, inputResponses: { confirm: { action: "decline" } } } }));
    expect(textOf(done as { content: { type: string; text: string }[] })).toContain("Not deployed");
  });

  it("the SDK v2 client fulfils the question through its elicitation handler and retries on its own", async ({
    expect,
  }) => {
    const client = new Client(
      { name: "e2e-v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MODERN } }, capabilities: ELICIT },
    );
    v2Clients.push(client);
    const asked: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: aliceHeaders } }),
    );
    const result = await client.callTool({ name: "deploy", arguments: DEPLOY });
    expect(textOf(result as { content: { type: string; text: string }[] })).toMatch(/^Deployed api v2/);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: QUESTION });
  });

  it("a client that declared neither the extension nor elicitation gets the fallback with the question, and task_input passes the answer on", async ({
    expect,
  }) => {
    const fallback = resultOf(await call({ capabilities: {} }));
    expect(fallback["resultType"]).toBe("complete");
    const text = textOf(fallback as { content: { type: string; text: string }[] });
    expect(text).toContain(QUESTION);
    expect(text).toContain("task_input");
    const taskId = String((fallback["structuredContent"] as Record<string, unknown>)["taskId"]);
    const answered = resultOf(
      await modern(
        server.url,
        "tools/call",
        { name: "task_input", arguments: { taskId, inputResponses: { confirm: YES } } },
        { token: ALICE },
      ),
    );
    expect(answered["isError"]).toBeUndefined();
    const done = await waitForStatus(server.url, taskId, "completed", aliceHeaders);
    expect(textOf(done.result)).toMatch(/^Deployed/);
    expect((await taskDoc(server.url, taskId, aliceHeaders)).inputRequests).toBeUndefined();
  });
});
