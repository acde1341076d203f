/**
 * Stream figures of issue 3, on one local `wrangler dev`, each as a ratio to the bare
 * route's p50 measured in the same run:
 * - per-event delivery latency from `job.progress()` (the event's commit time) to a reader
 *   of `GET /tasks/{id}/events`, p50/p99, with 1 and with 100 readers on one task
 *   (goal: p99 ≤ 5× bare p50 with 100 readers);
 * - time from a resume `GET /mcp` with Last-Event-ID to its first replayed event (goal ≤ 2×).
 */
import { request } from "node:http";
import {
  createTask,
  finishedCallFirstEventId,
  httpGet,
  ms,
  ratio,
  serverLine,
  startBenchServer,
  summarize,
  taskResult,
} from "./support.ts";

const BARE_SAMPLES = 300;
const BARE_BLOCK = 100;
const RESUME_SAMPLES = 200;
/** Delivery counts from this long after the last reader attached: the first events after it still meet the 100 connections' set-up. */
const SETTLE_MS = 200;

export default async function streams(report: (line: string) => void): Promise<void> {
  const server = await startBenchServer();
  try {
    const { url } = server;
    report(serverLine(server));
    const bareSamples = async (count: number) => {
      const out: number[] = [];
      for (let i = 0; i < count; i++) out.push(await httpGet(`${url}/health`));
      return out;
    };
    await bareSamples(30);
    await taskResult(url, await createTask(url, "batch_process", { items: 5, secondsPerItem: 0 }));

    // The bare route is sampled in blocks before each measurement and pooled: on this shared
    // machine its p50 moves by up to 2× between minutes, and one block at the start would set
    // every ratio by the machine's speed at that moment.
    const bareBlocks: number[][] = [await bareSamples(BARE_SAMPLES)];
    const delivery: { readers: number; d: ReturnType<typeof summarize>; attachMs: number }[] = [];
    for (const [readers, items] of [
      [1, 200],
      [100, 60],
    ] as const) {
      bareBlocks.push(await bareSamples(BARE_BLOCK));
      const { delays, attachMs } = await deliveryLatencies(url, readers, items);
      delivery.push({ readers, d: summarize(delays), attachMs });
    }
    bareBlocks.push(await bareSamples(BARE_BLOCK));
    const r = summarize(await resumeLatencies(url, RESUME_SAMPLES));

    const bare = summarize(bareBlocks.flat());
    report(
      `bare GET /health (n=${bare.n}, ${bareBlocks.length} blocks before the measurements; block p50s ${bareBlocks.map((b) => summarize(b).p50.toFixed(1)).join(" / ")} ms): p50 ${ms(bare.p50)}  p99 ${ms(bare.p99)}`,
    );
    for (const { readers, d, attachMs } of delivery) {
      report(
        `delivery job.progress() → reader, ${readers} reader(s) on one task (n=${d.n}, all attached after ${ms(attachMs)}): p50 ${ms(d.p50)}  p99 ${ms(d.p99)}`,
      );
      report(
        `  p50 / bare p50 = ${ratio(d.p50 / bare.p50)}   p99 / bare p50 = ${ratio(d.p99 / bare.p50)}${readers === 100 ? "   (goal p99 ≤ 5×)" : ""}`,
      );
    }
    report(`resume GET /mcp with Last-Event-ID → first replayed event (n=${r.n}): p50 ${ms(r.p50)}  p99 ${ms(r.p99)}`);
    report(
      `  resume p50 / bare p50 = ${ratio(r.p50 / bare.p50)}   (goal ≤ 2×)   p99 / bare p50 = ${ratio(r.p99 / bare.p50)}`,
    );
  } finally {
    await server.stop();
  }
}

/**
 * `readers` readers attach to one batch_process task (an item every 100 ms); each live progress
 * event's delay is its arrival time minus its commit time (`?timing=1` sends the commit time as an
 * SSE comment; both clocks are this machine's). Only events committed SETTLE_MS after the last
 * reader attached count: opening 100 streams at once is connection set-up, not delivery.
 */
async function deliveryLatencies(
  url: string,
  readers: number,
  items: number,
): Promise<{ delays: number[]; attachMs: number }> {
  const taskId = await createTask(url, "batch_process", { items, secondsPerItem: 0.1 });
  const started = Date.now();
  const all = await Promise.all(
    Array.from({ length: readers }, () => readProgressDelays(`${url}/tasks/${taskId}/events?timing=1`)),
  );
  const allAttached = Math.max(...all.map((r) => r.attachedAt));
  return {
    delays: all.flatMap((r) => r.delays.filter((d) => d.at > allAttached + SETTLE_MS).map((d) => d.delay)),
    attachMs: allAttached - started,
  };
}

/**
 * One reader over node:http with a plain string parser: undici's fetch + web streams cost the
 * client about a third more CPU per chunk, and the client shares these 2 cores with the server,
 * so a heavier client inflates the server's figure. The delay is still commit → bytes parsed here.
 */
function readProgressDelays(
  eventsUrl: string,
): Promise<{ attachedAt: number; delays: { at: number; delay: number }[] }> {
  return new Promise((resolve, reject) => {
    const delays: { at: number; delay: number }[] = [];
    let buffer = "";
    let at: number | undefined;
    let attachedAt = Number.POSITIVE_INFINITY;
    const req = request(eventsUrl, (response) => {
      if (response.statusCode !== 200) reject(new Error(`no stream: HTTP ${response.statusCode}`));
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        const now = Date.now();
        attachedAt = Math.min(attachedAt, now);
        buffer += text;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(": at ")) at = Number(block.slice(5));
          else if (block.includes("\nevent: progress\n") && at !== undefined) delays.push({ at, delay: now - at });
        }
      });
      response.on("end", () => resolve({ attachedAt, delays }));
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A finished tools/call stream is resumed from its first event, again and again. */
async function resumeLatencies(url: string, count: number): Promise<number[]> {
  const firstId = await finishedCallFirstEventId(url, 3, "bench");
  const latencies: number[] = [];
  const headers = { Accept: "text/event-stream", "MCP-Protocol-Version": "2025-11-25", "Last-Event-ID": firstId };
  for (let i = 0; i < count; i++)
    latencies.push(await httpGet(`${url}/mcp`, headers, (text) => /^data: \{/m.test(text)));
  return latencies;
}
