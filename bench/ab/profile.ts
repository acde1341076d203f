/**
 * Where a request's JavaScript time goes in our Worker (its Durable Objects run in the same
 * isolate under wrangler dev): a V8 CPU profile over the inspector while N plain calls of one kind
 * run, its samples summed by function (self time) and by source file, per call. What is not in the
 * profile (the wall time minus the sampled JS) is I/O: the runtime's hops, SQLite, the loopback.
 *
 *   npm exec -- node bench/ab/profile.ts [echo|batch|both]
 *
 * PROFILE_CALLS (300), PROFILE_TOP (25), PROFILE_GAP_MS (0: the calls back to back; the peers bench
 * sends a task call every ~50 ms, between seven other requests, so the principal's pool of prepared
 * objects keeps up, which back-to-back calls drain).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { startBenchServer, summarize } from "../support.ts";

// wrangler's inspector proxy refuses Node's built-in WebSocket's upgrade (non-101); miniflare's own
// `ws` is what wrangler itself talks to it with, so this tool borrows it rather than add a dependency.
const WebSocketClient: new (
  url: string,
) => {
  on(event: "open" | "error", listener: (error?: Error) => void): void;
  on(event: "message", listener: (data: Buffer) => void): void;
  send(data: string): void;
  close(): void;
} = createRequire(createRequire(import.meta.url).resolve("miniflare"))("ws");

const CALLS = Number(process.env["PROFILE_CALLS"] ?? 300);
const TOP = Number(process.env["PROFILE_TOP"] ?? 25);
const GAP_MS = Number(process.env["PROFILE_GAP_MS"] ?? 0);
const INTERVAL_US = 100;
const which = process.argv[2] ?? "both";
const HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  "MCP-Protocol-Version": "2025-11-25",
};
const CALLS_BY_KIND = {
  echo: { name: "echo", arguments: { text: "hi" } },
  batch: { name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } },
} as const;
type Kind = keyof typeof CALLS_BY_KIND;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

let nextRpc = 1;
/** Each call's span on CLOCK_MONOTONIC in µs, the clock V8 stamps the profile's samples with. */
const windows: [number, number][] = [];
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

async function call(url: string, kind: Kind): Promise<number> {
  const from = monotonicMicros();
  const started = performance.now();
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: nextRpc++, method: "tools/call", params: CALLS_BY_KIND[kind] }),
  });
  const text = await response.text();
  if (!text.includes('"result"')) throw new Error(`${kind}: ${text.slice(0, 200)}`);
  windows.push([from, monotonicMicros()]);
  return performance.now() - started;
}

// The bundle is minified: each frame is mapped back through its source map (vite's source-map-js, borrowed too).
const { SourceMapConsumer } = createRequire(createRequire(import.meta.url).resolve("vite"))("source-map-js") as {
  SourceMapConsumer: new (
    map: unknown,
  ) => {
    originalPositionFor(at: { line: number; column: number }): {
      source: string | null;
      line: number | null;
      name: string | null;
    };
  };
};
const consumers = new Map<string, InstanceType<typeof SourceMapConsumer> | undefined>();
/** The newest bundle wrangler dev wrote (a dev- folder of .wrangler/tmp), which the profile's frames name only as `index.js`. */
function newestBundle(): string | undefined {
  const tmp = join(import.meta.dirname, "../../.wrangler/tmp");
  const dirs = readdirSync(tmp)
    .filter((name) => name.startsWith("dev-") && existsSync(join(tmp, name, "index.js.map")))
    .map((name) => join(tmp, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return dirs[0] && join(dirs[0], "index.js");
}
function original(url: string, line: number, column: number): string | undefined {
  if (!consumers.has(url)) {
    const path = url === "index.js" ? newestBundle() : undefined;
    consumers.set(url, path ? new SourceMapConsumer(JSON.parse(readFileSync(`${path}.map`, "utf8"))) : undefined);
  }
  const at = consumers.get(url)?.originalPositionFor({ line: line + 1, column });
  if (!at?.source) return undefined;
  return `${at.name ?? "?"} ${at.source.replace(/^.*?\/(node_modules\/|src\/)/, "$1")}:${at.line}`;
}

/** One inspector session on the Worker's isolate. */
async function inspector(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const target = targets[0];
  if (!target) throw new Error("the inspector lists no target");
  const socket = new WebSocketClient(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.on("open", () => resolve());
    socket.on("error", (error) => reject(error));
  });
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve) => {
      const n = ++id;
      pending.set(n, resolve);
      socket.send(JSON.stringify({ id: n, method, params }));
    });
  return { send, close: () => socket.close() };
}

/** Self time per function and per file, in ms, from the profile's samples; a native call's also per its caller. */
function selfTimes(profile: Profile): {
  byFunction: Map<string, number>;
  byFile: Map<string, number>;
  nativeByCaller: Map<string, number>;
  total: number;
} {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const frameName = ({ callFrame: { functionName, url, lineNumber, columnNumber } }: ProfileNode) =>
    (url && original(url, lineNumber, columnNumber)) || `${functionName || "(anonymous)"} ${url}:${lineNumber + 1}`;
  const nativeByCaller = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  // With a gap between calls, only the samples inside a call count: what the answer waited for, not
  // the work its task does after it (its deferred write, the pool's refill).
  let at = profile.startTime;
  let open = 0;
  const inCall = (t: number): boolean => {
    while (open < windows.length && (windows[open]?.[1] ?? 0) < t) open++;
    const span = windows[open];
    return span !== undefined && span[0] <= t;
  };
  profile.samples.forEach((sample, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (GAP_MS > 0 && !inCall(at)) return;
    const node = nodes.get(sample);
    // A sample stands for one sampling interval: workerd's isolate is not sampled while it waits, so
    // the first sample after a wait carries the whole wait as its delta.
    const ms = Math.min(profile.timeDeltas[i] ?? 0, INTERVAL_US) / 1000;
    if (!node) return;
    const { functionName, url } = node.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") return;
    total += ms;
    // A native function (exec, arrayBuffer) is named by itself; a bundled one by its source.
    const name = frameName(node);
    if (!url) {
      const caller = parents.get(node.id);
      const key = `${functionName} ← ${caller ? frameName(caller) : "?"}`;
      nativeByCaller.set(key, (nativeByCaller.get(key) ?? 0) + ms);
    }
    const file = name.split(" ").at(-1)?.replace(/:\d+$/, "") || functionName;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  });
  return { byFunction, byFile, nativeByCaller, total };
}

const top = (map: Map<string, number>, per: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([name, ms]) => `  ${(ms / per).toFixed(3).padStart(7)} ms  ${name}`)
    .join("\n");

const server = await startBenchServer({ logLevel: "warn" });
try {
  const kinds: Kind[] = which === "both" ? ["echo", "batch"] : [which as Kind];
  for (let i = 0; i < 50; i++) for (const kind of kinds) await call(server.url, kind);
  const session = await inspector(server.inspectorPort());
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
  for (const kind of kinds) {
    windows.length = 0;
    await session.send("Profiler.start");
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      times.push(await call(server.url, kind));
      if (GAP_MS > 0) await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    const { profile } = (await session.send("Profiler.stop")) as { profile: Profile };
    const { byFunction, byFile, nativeByCaller, total } = selfTimes(profile);
    const wall = summarize(times);
    console.log(
      `\n== ${kind}: ${CALLS} calls, wall p50 ${wall.p50.toFixed(2)} ms, mean ${wall.mean.toFixed(2)} ms; sampled JS ${(total / CALLS).toFixed(2)} ms a call`,
    );
    console.log(`by file (self):\n${top(byFile, CALLS)}`);
    console.log(`by function (self):\n${top(byFunction, CALLS)}`);
    console.log(`native calls by their caller:\n${top(nativeByCaller, CALLS)}`);
  }
  session.close();
} finally {
  await server.stop();
}
