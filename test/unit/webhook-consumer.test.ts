import { afterEach, describe, it, vi } from "vitest";
import { handleWebhookBatch } from "../../src/webhooks/queue-consumer";

const TASK_ID = "0123456789abcdef0123456789abcdef";
const SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";

interface FakeMessage {
  id: string;
  body: unknown;
  attempts: number;
  acked: boolean;
  retried?: { delaySeconds?: number };
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

function message(body: unknown, attempts = 1): FakeMessage {
  return {
    id: "m1",
    body,
    attempts,
    acked: false,
    ack() {
      this.acked = true;
    },
    retry(options) {
      this.retried = options ?? {};
    },
  };
}

const hook = {
  v: 1,
  id: `${TASK_ID}.4`,
  principal: "anon",
  taskId: TASK_ID,
  url: "https://hooks.example.com/in",
  type: "task.completed",
  body: '{"type":"task.completed"}',
};

function fakeEnv(vars: Record<string, string> = {}) {
  const logs: { level: string; message: string }[] = [];
  const env = {
    ...vars,
    TASKS: {
      getByName: () => ({
        appendLog: async (level: string, text: string) => (logs.push({ level, message: text }), true),
      }),
    },
  };
  return { env: env as unknown as Env, logs };
}

async function run(queue: string, messages: FakeMessage[], env: Env): Promise<void> {
  await handleWebhookBatch({ queue, messages } as unknown as MessageBatch<unknown>, env);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("webhook queue consumer", () => {
  it("signs, posts without following redirects, acks a 2xx and logs it", async ({ expect }) => {
    const fetchMock = vi.fn(async (_url: URL, _init: RequestInit) => new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetchMock);
    const { env, logs } = fakeEnv({ WEBHOOK_SECRET: SECRET });
    const m = message(hook);
    await run("mcp-task-webhooks", [m], env);
    expect(m.acked).toBe(true);
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.redirect).toBe("manual");
    expect((init?.headers as Record<string, string> | undefined)?.["webhook-id"]).toBe(hook.id);
    expect(logs[0]?.message).toMatch(/delivered on attempt 1 of 14 \(HTTP 204/);
  });

  it("retries a failure with exponential backoff and logs the attempt", async ({ expect }) => {
    vi.stubGlobal(
      "fetch",
      async () => new Response("", { status: 302, headers: { location: "https://elsewhere.example" } }),
    );
    const { env, logs } = fakeEnv({ WEBHOOK_SECRET: SECRET, WEBHOOK_RETRY_BASE_SECONDS: "5" });
    const m = message(hook, 3);
    await run("mcp-task-webhooks", [m], env);
    expect(m.acked).toBe(false);
    expect(m.retried).toEqual({ delaySeconds: 20 });
    expect(logs[0]).toMatchObject({ level: "warning" });
    expect(logs[0]?.message).toMatch(/attempt 3 of 14 failed: HTTP 302 \(redirects are not followed/);
  });

  it("gives up after the last attempt and records it as an error", async ({ expect }) => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("connection refused");
    });
    // Caught, not printed: in the suite's output this expected line read like the cause of a failure.
    const workerLog = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { env, logs } = fakeEnv({ WEBHOOK_SECRET: SECRET, WEBHOOK_MAX_ATTEMPTS: "2" });
    const m = message(hook, 2);
    await run("mcp-task-webhooks", [m], env);
    expect(m.acked).toBe(true);
    expect(logs[0]).toMatchObject({ level: "error" });
    expect(logs[0]?.message).toMatch(/request failed: connection refused\. Given up because all 2 attempts failed/);
    expect(workerLog).toHaveBeenCalledWith("webhook given up", TASK_ID, hook.id, "request failed: connection refused");
    workerLog.mockRestore();
  });

  it("records dead-lettered events on the task", async ({ expect }) => {
    const { env, logs } = fakeEnv({ WEBHOOK_SECRET: SECRET });
    const m = message(hook, 101);
    await run("mcp-task-webhooks-dlq", [m], env);
    expect(m.acked).toBe(true);
    expect(logs[0]).toMatchObject({ level: "error" });
    expect(logs[0]?.message).toMatch(/given up by the queue after 101 deliveries/);
  });

  it("does not retry what cannot succeed: no secret, or a destination refused at delivery", async ({ expect }) => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    const workerLog = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const [vars, body, pattern] of [
      [{}, hook, /no valid WEBHOOK_SECRET/],
      [{ WEBHOOK_SECRET: SECRET }, { ...hook, url: "http://127.0.0.1:9/x" }, /destination is refused/],
    ] as const) {
      const { env, logs } = fakeEnv(vars);
      const m = message(body);
      await run("mcp-task-webhooks", [m], env);
      expect(m.acked).toBe(true);
      expect(logs[0]?.message).toMatch(pattern);
    }
    expect(fetchMock).not.toHaveBeenCalled();
    expect(workerLog).toHaveBeenCalledTimes(2);
    workerLog.mockRestore();
  });

  it("holds a malformed message to the one rule: retried on the queue, recorded on its task from the dead-letter queue", async ({
    expect,
  }) => {
    const { env, logs } = fakeEnv({ WEBHOOK_SECRET: SECRET });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal("fetch", fetchMock);
    const malformed = { ...hook, url: 42 };
    const m = message(malformed);
    await run("mcp-task-webhooks", [m], env);
    expect([m.acked, m.retried]).toEqual([false, { delaySeconds: 30 }]);
    expect(logs).toEqual([]);
    const dead = message(malformed, 101);
    await run("mcp-task-webhooks-dlq", [dead], env);
    expect(dead.acked).toBe(true);
    expect(logs).toEqual([
      {
        level: "error",
        message: expect.stringMatching(/could not be read and was dropped: its webhook body is malformed at url: /),
      },
    ]);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
