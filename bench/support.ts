/**
 * Shared helpers for benchmark sections: the server they measure, percentiles, timing, and
 * plain JSON-RPC over HTTP (no SDK client, so the figures measure the server, not client-side
 * bookkeeping).
 */
import { existsSync, readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { resolve } from "node:path";
import { startDevServer, type DevServer, type DevServerOptions } from "../test/e2e/support/wrangler-dev.ts";

/**
 * Where the benchmark's `wrangler dev` keeps its Durable Object state: tmpfs (/dev/shm) when the
 * machine has it, unless BENCH_STATE_ROOT names another directory. Locally each Durable Object is a
 * SQLite file, so every task creates a file and every commit fsyncs it; on this VM's ext4 that
 * measured about a fifth of the Worker thread's CPU per task, a cost of the laptop's disk that
 * production storage does not have. `BENCH_STATE_ROOT=/tmp npm run bench` measures on disk.
 */
export const STATE_ROOT: string | undefined =
  process.env["BENCH_STATE_ROOT"] ?? (existsSync("/dev/shm") ? "/dev/shm" : undefined);

/** Limits raised so sections measure latency, not admission control. */
const BENCH_VARS = {
  MAX_ACTIVE_TASKS_PER_PRINCIPAL: "5000",
  RATE_LIMIT_PER_MINUTE: "1000000",
  RATE_LIMIT_BURST: "1000000",
};

/** package.json's dev script: what `npm run dev` runs, which the bench follows. */
export function devScript(): string {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, "../package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  return pkg.scripts["dev"] ?? "";
}

/** The `--var KEY:VALUE` settings of the dev script (TRANSITION_LOG): the bench runs ours as `npm run dev` does. */
export function devScriptVars(): Record<string, string> {
  return Object.fromEntries([...devScript().matchAll(/--var ([A-Z_]+):(\S+)/g)].map((m) => [m[1] ?? "", m[2] ?? ""]));
}

export async function startBenchServer(options: DevServerOptions = {}): Promise<DevServer> {
  return startDevServer({
    stateRoot: STATE_ROOT,
    ...options,
    vars: { ...devScriptVars(), ...BENCH_VARS, ...options.vars },
  });
}

/** The line each section starts with: what ran where. */
export function serverLine(server: DevServer): string {
  return `server: wrangler dev at ${server.url} (Node ${process.version}); state in ${STATE_ROOT ?? "the OS temp dir"}; wrangler's local observability off`;
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** The p-th percentile (0..100) by nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function summarize(values: number[]): Summary {
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99), mean, max: Math.max(...values) };
}

export const ms = (value: number): string => `${value.toFixed(1)} ms`;
export const ratio = (value: number): string => `${value.toFixed(2)}×`;

/** Wall time of `fn` in milliseconds, with its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Runs `fn` `count` times one after another and returns each run's latency. */
export async function sequentialLatencies(count: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) latencies.push((await timed(() => fn(i))).ms);
  return latencies;
}

export async function getOk(url: string): Promise<void> {
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * GET over `node:http` on one kept-alive connection, read as it arrives: `until` sees the text so
 * far and says when the figure's moment has come (default: the end). Resolves with the time to that
 * moment; the rest of the body is still read so the connection is reused. The streams section uses
 * this one instrument for the bare route, its readers and resumes, so no ratio mixes a light client
 * with a heavy one (undici's fetch measured about 1.2 ms more per request here than node:http).
 */
export function httpGet(
  url: string,
  headers: Record<string, string> = {},
  until?: (text: string) => boolean,
): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: keepAlive, headers }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`GET ${url}: HTTP ${response.statusCode}`));
      let text = "";
      let at: number | undefined;
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (at !== undefined || !until) return;
        text += chunk;
        if (until(text)) at = performance.now() - started;
      });
      response.on("end", () =>
        at !== undefined || !until
          ? resolve(at ?? performance.now() - started)
          : reject(new Error(`GET ${url}: ended before the awaited moment`)),
      );
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** POST of a JSON-RPC request to `${baseUrl}/mcp` over `node:http` (JSON answer); resolves with its time and result. */
export function httpRpc(
  baseUrl: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ ms: number; result: Record<string, unknown> }> {
  const body = { jsonrpc: "2.0", id: nextId++, method, params };
  return httpPost(baseUrl, body, { "MCP-Protocol-Version": "2025-11-25" });
}

const TASKS_EXTENSION = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/**
 * The same for a 2026-07-28 request: the per-request `_meta` envelope (declaring the Tasks
 * extension, so a task-capable tool answers with a task) and the standard headers.
 */
export function httpModernRpc(
  baseUrl: string,
  method: string,
  params: Record<string, unknown> = {},
  name?: string,
): Promise<{ ms: number; result: Record<string, unknown> }> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": TASKS_EXTENSION,
  };
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } };
  return httpPost(baseUrl, body, {
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": method,
    ...(name !== undefined && { "Mcp-Name": name }),
  });
}

function httpPost(
  baseUrl: string,
  message: { method: string },
  extraHeaders: Record<string, string>,
): Promise<{ ms: number; result: Record<string, unknown> }> {
  const body = JSON.stringify(message);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json",
      ...extraHeaders,
      "Content-Length": String(Buffer.byteLength(body)),
    };
    const req = request(`${baseUrl}/mcp`, { method: "POST", agent: keepAlive, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        const ms = performance.now() - started;
        const parsed = JSON.parse(text) as { result?: Record<string, unknown>; error?: { message: string } };
        if (parsed.result) resolve({ ms, result: parsed.result });
        else reject(new Error(`${message.method}: ${parsed.error?.message ?? `HTTP ${response.statusCode}`}`));
      });
      response.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

let nextId = 1;
let restarts = 0;

/** How many requests so far met a Worker reload and were retried (a note for the report). */
export const reloadRetries = (): number => restarts;

/** One JSON-RPC request to `${baseUrl}/mcp`, answered as JSON (no SSE); throws on a JSON-RPC error. */
export async function mcp<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<T> {
  let response: Response;
  let text: string;
  for (let attempt = 1; ; attempt++) {
    response = await fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    text = await response.text();
    // wrangler dev reloads the Worker when a source file changes (other work in the same tree):
    // requests in flight then get this 503. Retrying is what a client would do.
    if (response.status === 503 && /restarted mid-request/.test(text) && attempt < 5) {
      restarts += 1;
      continue;
    }
    break;
  }
  let body: { result?: T; error?: { code: number; message: string } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new Error(`${method}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  if (!response.ok || body.result === undefined) throw new Error(`${method}: HTTP ${response.status}`);
  return body.result;
}

/** Task-augmented tools/call; resolves with the new task's id. */
export async function createTask(baseUrl: string, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await mcp<{ task: { taskId: string } }>(baseUrl, "tools/call", { name, arguments: args, task: {} });
  return result.task.taskId;
}

/** tasks/result: blocks until the task is terminal and returns its result. */
export function taskResult(baseUrl: string, taskId: string): Promise<Record<string, unknown>> {
  return mcp(baseUrl, "tasks/result", { taskId });
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/**
 * The first event id of a plain `countdown` call's stream, read once the call has finished: where a
 * `GET /mcp` with `Last-Event-ID` resumes from (the streams section and the peers' resume row).
 */
export async function finishedCallFirstEventId(url: string, seconds: number, progressToken: string): Promise<string> {
  const call = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds }, _meta: { progressToken } },
    }),
  });
  const firstId = /^id: (t\.\S+)$/m.exec(await call.text())?.[1];
  if (!firstId) throw new Error("the tools/call stream carried no task event id");
  return firstId;
}

/** The task's status messages with their commit times, in log order, from the timing view of its log. */
export async function statusTimes(url: string, taskId: string): Promise<[string, number][]> {
  const text = await (await fetch(`${url}/tasks/${taskId}/events?timing=1`)).text();
  const times: [string, number][] = [];
  let at = 0;
  for (const block of text.split("\n\n")) {
    const comment = /^: at (\d+)$/m.exec(block);
    if (comment) at = Number(comment[1]);
    if (!block.includes("event: status")) continue;
    const data = block.split("\n").find((line) => line.startsWith("data: "));
    const message = data ? (JSON.parse(data.slice(6)) as { statusMessage?: string }).statusMessage : undefined;
    if (message !== undefined) times.push([message, at]);
  }
  return times;
}
