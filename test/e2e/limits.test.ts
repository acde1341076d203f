// Limits: body cap (413), per-principal cap on unfinished tasks, TTL cap, argument size, and
// per-principal rate limiting (429 with Retry-After). One principal per limit, so they do not interfere.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import { until } from "../until";

const as = (name: string) => ({ Authorization: `Bearer ${name}-token` });
const principals = ["cap", "ttl", "body", "args", "rate", "calm"];
const server = sharedServer({
  API_KEYS: principals.map((p) => `${p}:${p}-token`).join(","),
  MAX_ACTIVE_TASKS_PER_PRINCIPAL: "2",
  MAX_TTL_MS: "60000",
  MAX_BODY_BYTES: "4096",
  MAX_ARGUMENT_BYTES: "512",
  RATE_LIMIT_PER_MINUTE: "12",
  RATE_LIMIT_BURST: "30",
});

const startCountdown = (who: string, seconds: number, ttl?: number) =>
  rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds }, task: ttl === undefined ? {} : { ttl } },
    },
    { headers: as(who) },
  );
const taskIdOf = (reply: { body: unknown }) =>
  (reply.body as { result: { task: { taskId: string } } }).result.task.taskId;

describe("limits", () => {
  it("refuses a body over MAX_BODY_BYTES with 413", async ({ expect }) => {
    const big = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "x".repeat(5000) } },
    };
    const reply = await rpc(server.url, big, { headers: as("body") });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ error: { message: expect.stringMatching(/larger than 4096 bytes/) } });
  });

  it("caps unfinished tasks per principal with a clear error, and admits again once one ends", async ({ expect }) => {
    const first = taskIdOf(await startCountdown("cap", 300));
    taskIdOf(await startCountdown("cap", 300));
    const third = await startCountdown("cap", 300);
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/Too many unfinished tasks \(2 of 2\)/) },
    });
    // Another principal is not affected by cap's tasks.
    expect(taskIdOf(await startCountdown("calm", 1))).toMatch(/^[0-9a-f]{32}$/);
    await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId: first } },
      { headers: as("cap") },
    );
    await vi.waitFor(
      async () => expect(taskIdOf(await startCountdown("cap", 1))).toMatch(/^[0-9a-f]{32}$/),
      until(250),
    );
  });

  it("clamps a requested ttl to MAX_TTL_MS", async ({ expect }) => {
    const reply = await startCountdown("ttl", 1, 3_600_000);
    expect(reply.body).toMatchObject({ result: { task: { ttl: 60_000 } } });
  });

  it("refuses tool arguments over MAX_ARGUMENT_BYTES with -32602", async ({ expect }) => {
    // tools/call answers as SSE when the client accepts it: ask for JSON only.
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "y".repeat(1000) } } },
      { headers: { ...as("args"), Accept: "application/json" } },
    );
    expect(reply.body).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/exceed 512 bytes/) } });
  });

  it("answers 429 with Retry-After once a principal exceeds its rate, without slowing others", async ({ expect }) => {
    const list = { jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} };
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof rpc>> | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      const reply = await rpc(server.url, list, { headers: as("rate") });
      statuses.push(reply.status);
      if (reply.status === 429) limited = reply;
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(limited?.body).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000, message: expect.stringMatching(/Rate limit exceeded/) },
    });
    // The task view is limited too. A token may have refilled since the 429 above (one every 5 s, and
    // a loaded machine can take that long between two requests): each try spends it, so the bucket is
    // empty again within a try or two; a route outside the limit would never answer 429.
    const view = await vi.waitFor(async () => {
      const reply = await fetch(`${server.url}/tasks/${"0".repeat(32)}`, { headers: as("rate") });
      expect(reply.status).toBe(429);
      return reply;
    }, until(100));
    expect(view.headers.get("Retry-After")).toMatch(/^\d+$/);
    // The bucket is per principal.
    expect((await rpc(server.url, list, { headers: as("calm") })).status).toBe(200);
    // And it refills (12 per minute: one token every 5 s, a gap the machine's load between the two
    // requests above cannot bridge, as one token a second could on a busy 2-core machine).
    await vi.waitFor(
      async () => expect((await rpc(server.url, list, { headers: as("rate") })).status).toBe(200),
      until(500),
    );
  });
});

describe("rate limiting with leased tokens (a burst large enough that an isolate takes 10 tokens per round trip)", () => {
  const burst = 200;
  const leased = sharedServer({
    API_KEYS: "lease:lease-token",
    RATE_LIMIT_PER_MINUTE: "60",
    RATE_LIMIT_BURST: String(burst),
  });

  it("still lets through no more than the burst plus the refill, then answers 429 with Retry-After", async ({
    expect,
  }) => {
    const headers = { Authorization: "Bearer lease-token" };
    const started = Date.now();
    let allowed = 0;
    let limited: Awaited<ReturnType<typeof rpc>> | undefined;
    for (let i = 0; i < burst + 100 && !limited; i++) {
      const reply = await rpc(leased.url, { jsonrpc: "2.0", id: i, method: "ping" }, { headers });
      if (reply.status === 429) limited = reply;
      else if (reply.status === 200) allowed += 1;
    }
    // One token a second refills while the loop runs; leases never add tokens, only move them.
    const refilled = Math.ceil((Date.now() - started) / 1000) + 1;
    expect(limited?.status).toBe(429);
    expect(allowed).toBeGreaterThanOrEqual(burst);
    expect(allowed).toBeLessThanOrEqual(burst + refilled);
    expect(Number(limited?.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(limited?.body).toMatchObject({
      error: {
        code: -32000,
        message: expect.stringMatching(/Rate limit exceeded \(60 requests per minute, bursts of 200\)/),
      },
    });
  });
});
