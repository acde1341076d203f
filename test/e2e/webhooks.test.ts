import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { sharedServer } from "./support/dev-server";
import { parseSse, rpc } from "./support/mcp";
import { openSse } from "./support/sse-reader";
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from "./support/webhook-receiver";
import { until } from "../until";

// A fixed test-only secret (24 random bytes, base64), passed to wrangler dev with --var.
const SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";

const server = sharedServer({
  WEBHOOK_SECRET: SECRET,
  WEBHOOK_ALLOW_LOOPBACK: "true",
  WEBHOOK_RETRY_BASE_SECONDS: "1",
  WEBHOOK_MAX_ATTEMPTS: "3",
  INLINE_WAIT_MS: "2000",
});
let receiver: WebhookReceiver;
let nextId = 1;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

interface HookBody {
  type: string;
  timestamp: string;
  data: {
    taskId: string;
    status: string;
    statusMessage?: string;
    correlationId?: string;
    resourceUri: string;
    url?: string;
    progress?: { progress: number };
  };
}

const bodyOf = (hook: ReceivedHook): HookBody => JSON.parse(hook.body) as HookBody;
const hooksAt = (path: string) => receiver.received.filter((hook) => hook.path === path);

/** Starts a task-augmented countdown with the given _meta; returns the JSON-RPC reply body. */
async function callCountdown(
  seconds: number,
  meta: Record<string, unknown>,
): Promise<{
  result?: { task: { taskId: string; _meta?: Record<string, unknown> } };
  error?: { code: number; message: string };
}> {
  const reply = await rpc(server.url, {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name: "countdown", arguments: { seconds }, task: { ttl: 600_000 }, _meta: meta },
  });
  return reply.body as never;
}

/** The task's log messages written after its terminal event (webhook attempts), via the plain HTTP view. */
async function logsAfterResult(taskId: string): Promise<string[]> {
  const all = parseSse(await (await fetch(`${server.url}/tasks/${taskId}/events`)).text());
  const result = all.find((event) => event.event === "result");
  if (!result?.id) return [];
  const after = parseSse(
    await (await fetch(`${server.url}/tasks/${taskId}/events`, { headers: { "Last-Event-ID": result.id } })).text(),
  );
  return after
    .filter((event) => event.event === "log")
    .map((event) => (JSON.parse(event.data) as { message: string }).message);
}

async function taskCount(): Promise<number> {
  const reply = await rpc(server.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/list", params: {} });
  return ((reply.body as { result: { tasks: unknown[] } }).result.tasks ?? []).length;
}

describe("signed webhooks (real runtime, real receiver on loopback)", () => {
  it("POSTs task.input_required with the question and the URL that answers it; a POST there resumes the task", async ({
    expect,
  }) => {
    const path = "/hooks/approval";
    const reply = await rpc(server.url, {
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: {
        name: "deploy",
        arguments: { service: "api", version: "v2" },
        task: { ttl: 600_000 },
        _meta: { "mcp-task-worker/webhook": { url: `${receiver.url}${path}` } },
      },
    });
    const taskId = (reply.body as { result: { task: { taskId: string } } }).result.task.taskId;
    await vi.waitFor(
      () => expect(hooksAt(path).map((hook) => bodyOf(hook).type)).toContain("task.input_required"),
      until(100),
    );
    const hook = hooksAt(path).find((h) => bodyOf(h).type === "task.input_required");
    const data = JSON.parse(hook?.body ?? "{}").data as {
      inputUrl?: string;
      inputRequests?: Record<string, { method: string; params: { message: string } }>;
      statusMessage?: string;
    };
    expect(data.statusMessage).toBe("Deploy api v2 to production?");
    expect(data.inputUrl).toBe(`${server.url}/tasks/${taskId}/input`);
    expect(data.inputRequests?.["confirm"]).toMatchObject({
      method: "elicitation/create",
      params: { message: "Deploy api v2 to production?" },
    });
    // A chat button or a script answers with no MCP client at all.
    const answered = await fetch(data.inputUrl ?? "", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ confirm: { action: "decline" } }),
    });
    expect(answered.status).toBe(200);
    await vi.waitFor(() => expect(hooksAt(path).map((h) => bodyOf(h).type)).toContain("task.completed"), until(100));
  });

  it("POSTs task.completed signed the Standard Webhooks way, with the correlation id and pull URLs", async ({
    expect,
  }) => {
    const path = "/hooks/completed";
    const started = await callCountdown(1, {
      "mcp-task-worker/webhook": { url: `${receiver.url}${path}` },
      "mcp-task-worker/correlation-id": "corr-42",
    });
    const taskId = started.result?.task.taskId ?? "";
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    await vi.waitFor(() => expect(hooksAt(path).length).toBeGreaterThanOrEqual(1), until(100));
    const [hook] = hooksAt(path);
    if (!hook) throw new Error("no webhook");
    // Independent verification with the standardwebhooks package.
    expect(() => new Webhook(SECRET).verify(hook.body, hook.headers)).not.toThrow();
    expect(hook.headers["webhook-id"]).toBe(`${taskId}.${hook.headers["webhook-id"]?.split(".")[1]}`);
    expect(hook.headers["content-type"]).toMatch(/application\/json/);
    const body = bodyOf(hook);
    expect(body).toMatchObject({
      type: "task.completed",
      data: {
        taskId,
        status: "completed",
        correlationId: "corr-42",
        resourceUri: `task://${taskId}`,
        url: `${server.url}/tasks/${taskId}`,
      },
    });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
    expect(hook.body).not.toContain("Countdown of 1 s finished");
    // Only the default events: no working status, no progress.
    expect(hooksAt(path).map((h) => bodyOf(h).type)).toEqual(["task.completed"]);
    // The receiver pulls the result from the URL it was given.
    const doc = (await (await fetch(body.data.url ?? "")).json()) as {
      status: string;
      result: { content: { text: string }[] };
    };
    expect(doc.status).toBe("completed");
    expect(doc.result.content[0]?.text).toBe("Countdown of 1 s finished.");
    await vi.waitFor(
      async () =>
        expect((await logsAfterResult(taskId)).some((m) => /delivered on attempt 1 of 3 \(HTTP 200/.test(m))).toBe(
          true,
        ),
      until(200),
    );
  });

  it("retries a failing receiver with the same webhook-id until it accepts, logging every attempt", async ({
    expect,
  }) => {
    const path = "/hooks/flaky";
    receiver.failNext(path, 2, 503);
    const started = await callCountdown(1, { "mcp-task-worker/webhook": { url: `${receiver.url}${path}` } });
    const taskId = started.result?.task.taskId ?? "";
    try {
      await vi.waitFor(() => expect(hooksAt(path).map((h) => h.status)).toEqual([503, 503, 200]), until(200));
    } catch (error) {
      console.error(`wrangler dev output (tail):\n${server.logs().slice(-6000)}`);
      throw error;
    }
    const hooks = hooksAt(path);
    expect(new Set(hooks.map((h) => h.headers["webhook-id"])).size).toBe(1);
    expect(new Set(hooks.map((h) => h.body)).size).toBe(1);
    for (const hook of hooks) expect(() => new Webhook(SECRET).verify(hook.body, hook.headers)).not.toThrow();
    await vi.waitFor(async () => {
      const logs = await logsAfterResult(taskId);
      expect(logs.filter((m) => /attempt 1 of 3 failed: HTTP 503\. Retrying in 1 s/.test(m))).toHaveLength(1);
      expect(logs.filter((m) => /attempt 2 of 3 failed: HTTP 503\. Retrying in 2 s/.test(m))).toHaveLength(1);
      expect(logs.filter((m) => /delivered on attempt 3 of 3/.test(m))).toHaveLength(1);
    }, until(200));
  });

  it("records an event that exhausts its attempts on the task instead of dropping it", async ({ expect }) => {
    const path = "/hooks/down";
    receiver.failAlways(path, 500);
    const started = await callCountdown(1, { "mcp-task-worker/webhook": { url: `${receiver.url}${path}` } });
    const taskId = started.result?.task.taskId ?? "";
    await vi.waitFor(
      async () =>
        expect((await logsAfterResult(taskId)).some((m) => /attempt 3 of 3 failed: HTTP 500\. Given up/.test(m))).toBe(
          true,
        ),
      until(300),
    );
    expect(hooksAt(path)).toHaveLength(3);
    // The task itself is unaffected by its webhook failing.
    const doc = (await (await fetch(`${server.url}/tasks/${taskId}`)).json()) as { status: string };
    expect(doc.status).toBe("completed");
  });

  it("adds working status and progress (at most one per second) when asked", async ({ expect }) => {
    const path = "/hooks/verbose";
    const started = await callCountdown(3, {
      "mcp-task-worker/webhook": { url: `${receiver.url}${path}`, events: ["working", "progress"] },
    });
    const taskId = started.result?.task.taskId ?? "";
    await vi.waitFor(
      () => expect(hooksAt(path).some((h) => bodyOf(h).type === "task.completed")).toBe(true),
      until(100),
    );
    const bodies = hooksAt(path).map(bodyOf);
    expect(bodies.every((b) => b.data.taskId === taskId)).toBe(true);
    expect(bodies.some((b) => b.type === "task.status" && b.data.status === "working")).toBe(true);
    const progress = bodies
      .filter((b) => b.type === "task.progress")
      .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < progress.length; i++) {
      expect(
        Date.parse(progress[i]?.timestamp ?? "") - Date.parse(progress[i - 1]?.timestamp ?? ""),
      ).toBeGreaterThanOrEqual(1000);
    }
  });

  it("refuses unsafe destinations with -32602 and creates no task", async ({ expect }) => {
    const before = await taskCount();
    const refused = [
      "http://hooks.example.com/in",
      "https://10.0.0.5/hook",
      "https://192.168.1.10/hook",
      "https://100.64.1.1/hook",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::ffff:169.254.169.254]/hook",
      "https://[fe80::1]/hook",
      "https://user:secret@hooks.example.com/in",
      "https://hooks.example.com:8443/in",
      "ftp://hooks.example.com/in",
      "not a url",
    ];
    for (const url of refused) {
      const reply = await callCountdown(1, { "mcp-task-worker/webhook": { url } });
      expect(reply.error?.code, url).toBe(-32602);
      expect(reply.error?.message, url).toMatch(/Webhook URL refused: .+/);
    }
    for (const webhook of [
      { url: `${receiver.url}/x`, events: ["completed"] },
      { url: 5 },
      "https://hooks.example.com/in",
    ]) {
      const reply = await callCountdown(1, { "mcp-task-worker/webhook": webhook });
      expect(reply.error?.code).toBe(-32602);
      expect(reply.error?.message).toMatch(/mcp-task-worker\/webhook/);
    }
    expect(await taskCount()).toBe(before);
  });
});

describe("correlation ids are echoed everywhere", () => {
  it("on CreateTaskResult, tasks/get, notifications/tasks/status, the result and the webhook", async ({ expect }) => {
    const path = "/hooks/correlation";
    const meta = {
      "mcp-task-worker/correlation-id": "session-7/call-3",
      "mcp-task-worker/webhook": { url: `${receiver.url}${path}` },
    };
    const created = await callCountdown(1, meta);
    const task = created.result?.task;
    expect(task?._meta).toEqual({ "mcp-task-worker/correlation-id": "session-7/call-3" });
    const taskId = task?.taskId ?? "";
    const got = await rpc(server.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { taskId } });
    expect(got.body).toMatchObject({
      result: { taskId, _meta: { "mcp-task-worker/correlation-id": "session-7/call-3" } },
    });
    const result = await rpc(server.url, { jsonrpc: "2.0", id: nextId++, method: "tasks/result", params: { taskId } });
    const messages = Array.isArray(result.body)
      ? (result.body as { result?: { _meta?: Record<string, unknown> } }[])
      : [result.body as { result?: { _meta?: Record<string, unknown> } }];
    expect(messages.find((m) => m.result)?.result?._meta).toMatchObject({
      "mcp-task-worker/correlation-id": "session-7/call-3",
    });
    await vi.waitFor(() => expect(hooksAt(path).length).toBe(1), until(100));
    expect(bodyOf(hooksAt(path)[0] as ReceivedHook).data.correlationId).toBe("session-7/call-3");

    // A plain call in a session whose client speaks tasks: its notifications/tasks/status (on the
    // session's GET stream) and its result carry the correlation id.
    const init = await rpc(server.url, {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { tasks: {} },
        clientInfo: { name: "webhooks", version: "1" },
      },
    });
    const session = {
      "Mcp-Session-Id": init.headers.get("Mcp-Session-Id") ?? "",
      "MCP-Protocol-Version": "2025-11-25",
    };
    const getStream = await openSse(`${server.url}/mcp`, { headers: { Accept: "text/event-stream", ...session } });
    await getStream.next();
    const plain = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: {
          name: "countdown",
          arguments: { seconds: 1 },
          _meta: { "mcp-task-worker/correlation-id": "plain-1" },
        },
      },
      { headers: session },
    );
    const streamed = plain.body as { result?: { _meta?: Record<string, unknown> } }[];
    expect(streamed.find((m) => m.result)?.result?._meta).toMatchObject({
      "mcp-task-worker/correlation-id": "plain-1",
    });
    const statuses: { params?: { status?: string; _meta?: Record<string, unknown> } }[] = [];
    while (statuses.at(-1)?.params?.status !== "completed") {
      const event = await getStream.next();
      if (!event) throw new Error("the GET stream ended");
      if (event.data) statuses.push(JSON.parse(event.data));
    }
    getStream.drop();
    for (const status of statuses)
      expect(status.params?._meta).toMatchObject({ "mcp-task-worker/correlation-id": "plain-1" });
  });
});
