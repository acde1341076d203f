/**
 * The Events extension (issue 48), on one local `wrangler dev`:
 * - webhook latency: a task's completion (its `lastUpdatedAt`) → the AI SDK handler's acceptance of
 *   its `task.status` occurrence, beside our per-task webhook (`task.completed`) for the same tasks
 *   in the same run (goal: p50 ≤ 1.2× the task webhook's);
 * - fan-out: one `deploy.finished` occurrence to 100, then 1,000 webhook subscriptions: each
 *   delivered once, the wall time and the rate;
 * - `events/poll` p50 beside a 2026 `tasks/get` p50, interleaved (goal ≤ 1.2×);
 * - 200 concurrent `events/stream`s held for EVENTS_BENCH_HOLD_MS (60 s) with heartbeats: none dropped.
 */
import { createMCPClient } from "@ai-sdk/mcp";
import { startEventReceiver, type EventReceiver } from "../test/e2e/support/event-receiver.ts";
import { startWebhookReceiver } from "../test/e2e/support/webhook-receiver.ts";
import { httpModernRpc, mcp, ms, ratio, serverLine, startBenchServer, summarize } from "./support.ts";

const CONCURRENT = 50;
const SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const HOLD_MS = Number(process.env["EVENTS_BENCH_HOLD_MS"] ?? 60_000);
const STREAMS = 200;
const HEARTBEAT_MS = 15_000;

async function waitFor(what: string | (() => string), check: () => boolean, limitMs = 300_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An open `events/stream`: the notifications' methods as they arrive. */
interface HeldStream {
  methods: string[];
  close(): void;
}

async function openEventStream(url: string, id: string): Promise<HeldStream> {
  const controller = new AbortController();
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "events/stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "events/stream",
      params: { name: "task.status", arguments: {}, cursor: null, _meta: meta },
    }),
    signal: controller.signal,
  });
  const methods: string[] = [];
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    let pending = "";
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        pending += decoder.decode(chunk.value, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          const method = /"method":"([^"]+)"/.exec(line)?.[1];
          if (line.startsWith("data:") && method) methods.push(method);
        }
      }
    } catch {
      // closed by the bench
    }
  })();
  return { methods, close: () => controller.abort() };
}

async function subscribeMany(url: string, receiver: EventReceiver, name: string, count: number, tag: string) {
  const client = await createMCPClient({
    transport: { type: "http", url: `${url}/mcp` },
    experimental_events: { store: receiver.store },
  });
  try {
    const ids: string[] = [];
    for (let n = 0; n < count; n += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, count - n) }, (_, i) =>
          client.experimental_events.subscribe({
            name,
            arguments: {},
            delivery: { mode: "webhook", url: `${receiver.url}?${tag}=${n + i}`, allowInsecureLocalhost: true },
            ttlMs: 3600_000,
          }),
        ),
      );
      ids.push(...batch.map((sub) => sub.id));
    }
    return ids;
  } finally {
    await client.close();
  }
}

export default async function events(report: (line: string) => void): Promise<void> {
  const hooks = await startWebhookReceiver();
  const receiver = await startEventReceiver();
  const server = await startBenchServer({
    vars: {
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_ALLOW_LOOPBACK: "true",
      EVENTS_MAX_SUBSCRIPTIONS: "5000",
      EVENTS_HEARTBEAT_MS: String(HEARTBEAT_MS),
    },
  });
  const streams: HeldStream[] = [];
  try {
    const { url } = server;
    report(serverLine(server));

    // 1. Latency: the same tasks reported both ways.
    await subscribeMany(url, receiver, "task.status", 1, "latency");
    // Task-augmented 2025 calls: our per-task webhook rides in the call's _meta.
    const start = async (): Promise<string> =>
      (
        await mcp<{ task: { taskId: string } }>(url, "tools/call", {
          name: "countdown",
          arguments: { seconds: 2 },
          task: {},
          _meta: { "mcp-task-worker/webhook": { url: `${hooks.url}/bench` } },
        })
      ).task.taskId;
    const ids = await Promise.all(Array.from({ length: CONCURRENT }, start));
    const completedHook = (id: string) =>
      hooks.received.find(
        (hook) => hook.path === "/bench" && hook.body.includes('"task.completed"') && hook.body.includes(id),
      );
    const completedEvent = (id: string) =>
      receiver.events.find((event) => event.data["taskId"] === id && event.data["status"] === "completed");
    await waitFor(
      () =>
        `every task's webhook and event (${ids.filter(completedHook).length} webhooks, ${ids.filter(completedEvent).length} events, ${receiver.posts.length} posts so far)`,
      () => ids.every((id) => completedHook(id) && completedEvent(id)),
      120_000,
    );
    const viaHook: number[] = [];
    const viaEvent: number[] = [];
    for (const id of ids) {
      const doc = (await (await fetch(`${url}/tasks/${id}`)).json()) as { lastUpdatedAt: string };
      const done = Date.parse(doc.lastUpdatedAt);
      viaHook.push((completedHook(id)?.at ?? Number.NaN) - done);
      viaEvent.push((completedEvent(id)?.at ?? Number.NaN) - done);
    }
    const hook = summarize(viaHook);
    const event = summarize(viaEvent);
    report(
      `completion → receiver, ${CONCURRENT} concurrent 2 s countdowns: task.status event p50 ${ms(event.p50)} p99 ${ms(event.p99)}; our task webhook p50 ${ms(hook.p50)} p99 ${ms(hook.p99)}; ratio p50 ${ratio(event.p50 / hook.p50)} (goal ≤ 1.2×)`,
    );

    // 2. Fan-out of one deploy.finished occurrence.
    let subscribed = 0;
    for (const count of [100, 1000]) {
      const tag = `fan${count}`;
      await subscribeMany(url, receiver, "deploy.finished", count - subscribed, tag);
      subscribed = count;
      const before = receiver.events.length;
      const deploy = String(
        (
          await httpModernRpc(
            url,
            "tools/call",
            { name: "deploy", arguments: { service: tag, version: "1" } },
            "deploy",
          )
        ).result["taskId"],
      );
      const cancelled = await httpModernRpc(url, "tasks/cancel", { taskId: deploy }, deploy);
      const cancelledAt = Date.parse(String(cancelled.result["lastUpdatedAt"] ?? new Date().toISOString()));
      const ofThis = () =>
        receiver.events.slice(before).filter((e) => e.name === "deploy.finished" && e.data["service"] === tag);
      // Every subscription of every earlier round matches too (no service filter): count only this round's.
      await waitFor(`${count} deliveries`, () => new Set(ofThis().map((e) => e.subscriptionId)).size >= count);
      const arrivals = ofThis().map((e) => e.at);
      const wall = Math.max(...arrivals) - cancelledAt;
      const subscriptions = new Set(ofThis().map((e) => e.subscriptionId)).size;
      report(
        `deploy.finished to ${subscriptions} subscriptions (each ${ofThis().length === subscriptions ? "once" : `${ofThis().length} deliveries`}): last delivered ${ms(wall)} after the cancel, ${(subscriptions / (wall / 1000)).toFixed(0)} deliveries/s`,
      );
    }

    // 3. events/poll against tasks/get, interleaved.
    const running = String(
      (await httpModernRpc(url, "tools/call", { name: "countdown", arguments: { seconds: 3600 } }, "countdown")).result[
        "taskId"
      ],
    );
    const cursor = String(
      (await httpModernRpc(url, "events/poll", { name: "task.status", arguments: {}, cursor: null })).result["cursor"],
    );
    const polls: number[] = [];
    const gets: number[] = [];
    for (let i = 0; i < 320; i++) {
      const poll = await httpModernRpc(url, "events/poll", {
        name: "task.status",
        arguments: { taskId: running },
        cursor,
      });
      const get = await httpModernRpc(url, "tasks/get", { taskId: running }, running);
      if (i >= 20) {
        polls.push(poll.ms);
        gets.push(get.ms);
      }
    }
    const poll = summarize(polls);
    const get = summarize(gets);
    report(
      `events/poll p50 ${ms(poll.p50)} p99 ${ms(poll.p99)}; 2026 tasks/get p50 ${ms(get.p50)} p99 ${ms(get.p99)}; ratio p50 ${ratio(poll.p50 / get.p50)} (goal ≤ 1.2×, n=${poll.n})`,
    );
    await httpModernRpc(url, "tasks/cancel", { taskId: running }, running);

    // 4. Streams held open.
    for (let i = 0; i < STREAMS; i++) streams.push(await openEventStream(url, `s${i}`));
    const opened = Date.now();
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    const heartbeats = streams.map((s) => s.methods.filter((m) => m === "notifications/events/heartbeat").length);
    const active = streams.filter((s) => s.methods[0] === "notifications/events/active").length;
    const expected = Math.floor((Date.now() - opened) / HEARTBEAT_MS) - 1;
    const short = heartbeats.filter((n) => n < expected).length;
    report(
      `${STREAMS} events/streams held ${(HOLD_MS / 1000).toFixed(0)} s: ${active} active, heartbeats per stream min ${Math.min(...heartbeats)} max ${Math.max(...heartbeats)} (every ${HEARTBEAT_MS / 1000} s), ${short} with fewer than ${expected}: ${short === 0 && active === STREAMS ? "none dropped" : "SOME DROPPED"}`,
    );
  } finally {
    for (const stream of streams) stream.close();
    await server.stop();
    await receiver.close();
    await hooks.close();
  }
}
