// Fuzzing the HTTP surface (/mcp, the task view and the console's routes, answers to a task's questions
// through POST /tasks/{id}/input, tasks/update, task_input and forged 2025 response ids, forged requestStates),
// with values nested far past the JSON depth limit on every surface (2026 included) and the claim and
// envelope keys spelled with JSON escapes: ≥1,000 malformed or hostile requests (seeded, so a failure
// replays with FUZZ_SEED) must give no 5xx, no dropped connection and no error naming an internal
// exception, and leave earlier tasks intact (a task waiting for its answer keeps waiting, its question unchanged).
// The open OAuth endpoints (consent form, registration, token, callback) get 300 of their own.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { startTask } from "./support/tasks";
import { rpc } from "./support/mcp";
import { rawRequest } from "./support/raw-http";
import { deepRequest, escapedRequest, type Dice, type FuzzRequest } from "./support/fuzz-input";
import { TASKS, modern } from "./support/modern";
import { oauthRequest } from "./support/fuzz-oauth";
import { OPEN_ENDPOINTS_VARS } from "./support/oauth-open-endpoints";
import { until } from "../until";

const SEED = Number(process.env["FUZZ_SEED"] ?? 20261105);
const COUNT = 1200;
const token = { Authorization: "Bearer fuzz-token" };
const server = sharedServer({
  API_KEYS: "fuzz:fuzz-token",
  RATE_LIMIT_PER_MINUTE: "0",
  MAX_ACTIVE_TASKS_PER_PRINCIPAL: "1000",
});
/** The open OAuth endpoints (support/fuzz-oauth.ts), on the server test/e2e/oauth-open-endpoints.test.ts uses. */
const oauthServer = sharedServer(OPEN_ENDPOINTS_VARS);
const OAUTH_COUNT = 300;

/** mulberry32: small, fast, seedable. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const int = (n: number) => Math.floor(rand() * n);
const dice: Dice = { rand, pick, int };

const hostileStrings = [
  "",
  "../../x",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "\u0000",
  "a".repeat(70_000),
  "\ud800",
  "💥".repeat(100),
  "task://../../x",
  "t.",
  "s.x.1",
  "<script>",
  "0".repeat(32),
  "G".repeat(32),
  " ",
  "\n\r",
  "${jndi:x}",
  "__proto__",
  "constructor",
];
const hostileNumbers = [-1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, 86401, 1e21];
const hostileValues = (): unknown =>
  pick<() => unknown>([
    () => pick(hostileStrings),
    () => pick(hostileNumbers),
    () => null,
    () => true,
    () => [],
    () => ({}),
    () => ({ __proto__: { x: 1 } }),
    () => [pick(hostileStrings)],
    () => ({ [pick(hostileStrings)]: pick(hostileNumbers) }),
  ])();
const methods = [
  "initialize",
  "tools/list",
  "tools/call",
  "tasks/get",
  "tasks/result",
  "tasks/cancel",
  "tasks/list",
  "tasks/update",
  "resources/read",
  "resources/list",
  "resources/templates/list",
  "resources/subscribe",
  "ping",
  "notifications/initialized",
  "notifications/cancelled",
  "events/poll",
  "events/subscribe",
  "nope/nope",
  "",
  "__proto__",
];

/** Deeply nested JSON, balanced or not. */
function nested(depth: number): string {
  if (rand() < 0.5) return "[".repeat(depth) + "]".repeat(depth);
  return (
    '{"jsonrpc":"2.0","id":1,"method":"ping","params":' +
    '{"a":'.repeat(depth) +
    "1" +
    "}".repeat(rand() < 0.5 ? depth : depth - 1) +
    "}"
  );
}

function message(): unknown {
  const method = pick(methods);
  const params = pick<() => unknown>([
    () => ({ taskId: hostileValues() }),
    () => ({ uri: pick(["task://../../x", `task://${"f".repeat(32)}/..`, "file:///etc/passwd", hostileValues()]) }),
    () => ({
      name: pick(["countdown", "batch_process", "echo", "..", hostileValues()]),
      arguments: {
        seconds: hostileValues(),
        items: hostileValues(),
        secondsPerItem: hostileValues(),
        text: hostileValues(),
      },
      task: pick([undefined, {}, { ttl: hostileValues() }, hostileValues()]),
      _meta: pick([
        undefined,
        { "mcp-task-worker/idempotency-key": hostileValues() },
        { progressToken: hostileValues() },
        { "mcp-task-worker/webhook": { url: pick(["http://127.0.0.1:1/", "file:///x", hostileValues()]) } },
        hostileValues(),
      ]),
    }),
    () => ({ cursor: hostileValues() }),
    () => ({ requestId: pick<unknown>([hostileValues(), "r".repeat(20_000), 1]), reason: hostileValues() }),
    () => hostileValues(),
  ])();
  const base: Record<string, unknown> = {
    jsonrpc: pick(["2.0", "2.0", "1.0", 2, null]),
    method: pick([method, method, hostileValues()]),
    params,
  };
  if (rand() < 0.85)
    base["id"] = pick<unknown>([1, "x", int(1e6), pick(hostileNumbers), pick(hostileStrings), null, {}, []]);
  return base;
}

/** Answer bodies that must never be taken: a bad action, or accept with a confirm that is not a boolean. */
function badAnswers(): unknown {
  const notBoolean = pick<unknown>([...hostileStrings, ...hostileNumbers, null, [], {}, [true]]);
  return pick<() => unknown>([
    () => ({ confirm: { action: "accept", content: { confirm: notBoolean, note: hostileValues() } } }),
    () => ({ confirm: { action: pick(hostileStrings) } }),
    () => ({ confirm: hostileValues() }),
    () => ({ confirm: { action: "accept", content: hostileValues() === null ? null : [notBoolean] } }),
    () => ({ [pick(hostileStrings)]: { action: "accept", content: { confirm: notBoolean } } }),
    () => hostileValues(),
  ])();
}

/** One answer of an answers body (what a response's result carries), or the body itself. */
const answerOf = (answers: unknown): unknown =>
  typeof answers === "object" && answers !== null && !Array.isArray(answers) ? Object.values(answers)[0] : answers;

const modernMethods = [
  "server/discover",
  "tools/list",
  "tools/call",
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
  "tasks/result",
  "tasks/list",
  "resources/read",
  "resources/list",
  "resources/templates/list",
  "subscriptions/listen",
  "events/list",
  "events/poll",
  "events/stream",
  "events/subscribe",
  "events/unsubscribe",
  "initialize",
  "ping",
  "notifications/cancelled",
  "nope/nope",
];
const TASKS_CAPS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** A 2026-07-28 shaped request: an envelope, params and standard headers, each part possibly hostile. */
function modernRequest(headers: Record<string, string>): { headers: Record<string, string>; body: string } {
  const method = pick(modernMethods);
  const someTask = () => pick<unknown>([taskId, taskId, waitingId, "0".repeat(32), hostileValues()]);
  // Forged requestStates: well-formed, truncated, or with a payload naming the waiting task.
  const forgedState = () =>
    pick<unknown>([
      hostileValues(),
      "v1..",
      `v1.${Buffer.from(JSON.stringify({ t: waitingId, p: "x", n: "deploy", d: "x", e: 9e15 })).toString("base64url")}.${"A".repeat(43)}`,
      `v1.${"e30"}.${"B".repeat(43)}`,
      "v2.a.b",
    ]);
  const params = pick<() => Record<string, unknown>>([
    () => ({
      name: pick(["countdown", "echo", "build_report", "task_status", "deploy", "task_input", "..", hostileValues()]),
      arguments: pick([
        { seconds: pick([1, 2, hostileValues()]) },
        { text: hostileValues() },
        { pages: hostileValues() },
        { taskId: someTask(), inputResponses: badAnswers() },
        { service: "api", version: "v2" },
        hostileValues(),
      ]),
      task: pick([undefined, { ttl: hostileValues() }]),
      requestState: pick([undefined, undefined, forgedState()]),
      inputResponses: pick([undefined, { k: { action: "accept" } }, badAnswers(), hostileValues()]),
    }),
    () => ({
      taskId: someTask(),
      inputResponses: pick([
        {},
        { k: { action: pick(["accept", "nope"]), content: hostileValues() } },
        badAnswers(),
        hostileValues(),
      ]),
    }),
    () => ({
      uri: pick([
        `task://${taskId}`,
        "task://../../x",
        `task://${taskId}?after=${pick(["-1", "x", "1&y=2", "99999999999", "3"])}`,
        hostileValues(),
      ]),
    }),
    () => ({
      notifications: pick([
        { taskIds: [someTask(), hostileValues()] },
        { resourceSubscriptions: [pick([`task://${taskId}`, hostileValues()])] },
        { toolsListChanged: hostileValues() },
        hostileValues(),
      ]),
    }),
    () => ({ cursor: hostileValues() }),
    // The Events extension: a stream's arguments are always refused (a valid one would stay open),
    // and a callback is never a host off this machine (only refused forms and a closed loopback port).
    () => ({
      name: pick(["task.status", "deploy.finished", "no.such", hostileValues()]),
      arguments:
        method === "events/stream"
          ? { nope: 1 }
          : pick([{}, { taskId: hostileValues() }, { status: hostileValues() }, hostileValues()]),
      cursor: pick([null, "garbage", "0000000000000000.5", hostileValues()]),
      maxAgeMs: pick([undefined, -1, 1e20, hostileValues()]),
      maxEvents: pick([undefined, 0, 5000, hostileValues()]),
      ttlMs: pick([undefined, null, 0, hostileValues()]),
      delivery: pick([
        undefined,
        { mode: "webhook", url: "http://127.0.0.1:9/x", secret: `whsec_${"A".repeat(32)}` },
        {
          mode: "webhook",
          url: pick(["http://10.0.0.1/x", "https://169.254.169.254/", "ftp://x", hostileValues()]),
          secret: hostileValues(),
        },
        hostileValues(),
      ]),
    }),
  ])();
  const meta: Record<string, unknown> = {
    "io.modelcontextprotocol/protocolVersion": pick<unknown>([
      "2026-07-28",
      "2026-07-28",
      "2026-07-28",
      "2099-01-01",
      "2025-11-25",
      20260728,
      null,
      "",
    ]),
    "io.modelcontextprotocol/clientCapabilities": pick<unknown>([
      {},
      TASKS_CAPS,
      TASKS_CAPS,
      "all",
      null,
      { extensions: { "io.modelcontextprotocol/tasks": hostileValues() } },
    ]),
  };
  if (rand() < 0.5)
    meta["io.modelcontextprotocol/clientInfo"] = pick<unknown>([{ name: "fuzz", version: "1" }, hostileValues()]);
  if (rand() < 0.3)
    meta["io.modelcontextprotocol/logLevel"] = pick<unknown>(["debug", "emergency", "loud", hostileValues()]);
  if (rand() < 0.2) meta["progressToken"] = hostileValues();
  if (rand() < 0.1) delete meta[pick(Object.keys(meta))];
  const body: Record<string, unknown> = {
    jsonrpc: pick(["2.0", "2.0", "2.0", "1.0"]),
    method: pick([method, method, method, hostileValues()]),
    params: rand() < 0.95 ? { ...params, _meta: rand() < 0.9 ? meta : hostileValues() } : hostileValues(),
  };
  if (rand() < 0.95) body["id"] = pick<unknown>([1, "x", null, {}, pick(hostileNumbers)]);
  const nameSource = params["name"] ?? params["uri"] ?? params["taskId"];
  const named = typeof nameSource === "string" ? nameSource : "";
  const sentinel = (value: string) => `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
  const out: Record<string, string> = {
    ...headers,
    "Content-Type": "application/json",
    Accept: pick([
      "application/json, text/event-stream",
      "application/json, text/event-stream",
      "text/event-stream",
      "application/json",
    ]),
  };
  if (rand() < 0.9)
    out["MCP-Protocol-Version"] = pick(["2026-07-28", "2026-07-28", "2025-11-25", "2099-01-01", " 2026-07-28 "]);
  if (rand() < 0.9) out["Mcp-Method"] = rand() < 0.8 ? method : pick(["tools/list", "Tools/Call", "", "x".repeat(300)]);
  if (rand() < 0.8)
    out["Mcp-Name"] = pick([
      named,
      named,
      sentinel(named),
      "=?base64?!!!?=",
      "=?base64??=",
      sentinel("\u0000"),
      "other",
      "\u00ff",
    ]).replace(/[^\x20-\x7e]/g, "");
  return { headers: out, body: JSON.stringify(body) };
}

function request(): FuzzRequest {
  const headers: Record<string, string> = {
    ...(rand() < 0.9
      ? token
      : pick<Record<string, string>>([
          {},
          { Authorization: "Bearer " },
          { Authorization: "Basic x" },
          { Authorization: `Bearer ${"a".repeat(5000)}` },
        ])),
  };
  // Mostly well-formed envelopes, so most requests get past the media-type checks to the parsers.
  headers["Content-Type"] =
    rand() < 0.85
      ? "application/json"
      : pick(["text/plain", "application/json; charset=utf-16", "multipart/form-data", ""]);
  headers["Accept"] =
    rand() < 0.85
      ? pick(["application/json, text/event-stream", "application/json"])
      : pick(["text/event-stream", "*/*", "image/png", ""]);
  if (rand() < 0.2)
    headers["MCP-Protocol-Version"] = pick(["2025-11-25", "2025-06-18", "1999-01-01", "../", "x".repeat(300)]);
  const eventIds = ["t.", `t.${"a".repeat(32)}.0.99999999999999999`, "s.../..", "x".repeat(300)];
  eventIds.push(`t.${"b".repeat(32)}.1.1`);
  // Ids the GET reconnect opens a fresh stream for when a live session is named: a POST stream's, one past a log.
  eventIds.push(`x.${"c".repeat(32)}.1`, `s.${"A".repeat(43)}.999999999`);
  if (rand() < 0.15) headers["Last-Event-ID"] = pick(eventIds);
  if (rand() < 0.15)
    headers["Mcp-Session-Id"] = pick(["", "../../x", "z".repeat(500), "\u00ff", "0123456789abcdef0123456789abcdef"]);
  if (rand() < 0.05) headers["Origin"] = pick(["https://evil.example", "null", "http://localhost:1"]);
  const kind = int(16);
  if (kind >= 14) return deepRequest(dice, { waitingId, token });
  if (kind === 13) return escapedRequest(dice, headers, modernRequest);
  if (kind >= 10) return { method: "POST", path: "/mcp", ...modernRequest(headers) };
  if (kind === 0)
    return { method: "POST", path: "/mcp", headers, body: crypto.getRandomValues(new Uint8Array(1 + int(2048))) };
  if (kind === 1) return { method: "POST", path: "/mcp", headers, body: nested(1 + int(20_000)) };
  if (kind === 2) {
    const batch = Array.from({ length: pick([0, 1, 2, 33, 100]) }, () => message());
    return { method: "POST", path: "/mcp", headers, body: JSON.stringify(batch) };
  }
  if (kind === 3)
    return {
      method: pick(["GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD", "TRACE"]),
      path: pick([
        "/mcp",
        "/tasks/x",
        "/",
        "/.well-known/oauth-protected-resource",
        "/authorize",
        "/tasks",
        `/tasks/${"f".repeat(32)}/cancel`,
        "/tasks/x/cancel",
      ]),
      headers,
    };
  if (kind === 4)
    return {
      method: "GET",
      path: pick([
        "/tasks/",
        "/tasks/../../etc/passwd",
        "/tasks/%2e%2e%2f%2e%2e",
        `/tasks/${"f".repeat(32)}/events`,
        `/tasks/${"F".repeat(32)}`,
        "/tasks/%00",
        `/tasks/${"a".repeat(5000)}`,
        "/tasks/💥/events",
        `/tasks/${"c".repeat(32)}/events?lastEventId=t.${"c".repeat(32)}.0.-1`,
        ...afterPaths(waitingId),
      ]),
      headers,
    };
  if (kind === 6) {
    // The console's routes: task lists with hostile cursors and limits, cancels of hostile ids.
    const hostile = () => {
      const text = String(
        pick<unknown>([
          ...hostileStrings,
          ...hostileNumbers,
          btoa(`${int(1e13)}:${"g".repeat(32)}`),
          btoa(`-1:${"a".repeat(32)}`),
        ]),
      );
      try {
        return encodeURIComponent(text);
      } catch {
        return "%ED%A0%80%zz"; // a lone surrogate cannot be encoded: send broken escapes instead
      }
    };
    if (rand() < 0.5)
      return { method: "GET", path: `/tasks?${pick(["cursor", "limit", "cursor=x&limit"])}=${hostile()}`, headers };
    return {
      method: "POST",
      path: `/tasks/${hostile()}/cancel`,
      headers,
      ...(rand() < 0.5 && { body: JSON.stringify(hostileValues()) }),
    };
  }
  if (kind === 5)
    return {
      method: "POST",
      path: "/mcp",
      headers,
      body: JSON.stringify(pick([Number.POSITIVE_INFINITY, "str", null, [], true, -0])).replace(
        "null",
        pick(["null", "1e400", "NaN", '"\\ud800"']),
      ),
    };
  if (kind === 7) {
    // Answers to the waiting deploy task (never a valid one) and to hostile task ids.
    const target = rand() < 0.6 ? waitingId : pick(hostileStrings);
    let path: string;
    try {
      path = `/tasks/${encodeURIComponent(target)}/input`;
    } catch {
      path = "/tasks/%ED%A0%80/input";
    }
    // No body on a GET: the dev runtime leaves a GET's body unread on a kept-alive socket, where it garbles the next request.
    const method = pick(["POST", "POST", "POST", "PUT", "GET"]);
    return { method, path, headers, ...(method !== "GET" && { body: JSON.stringify(badAnswers()) }) };
  }
  if (kind === 8) {
    // JSON-RPC responses whose ids look like a question's route: forged, malformed, or the waiting task's with a bad answer.
    const id = pick<unknown>([
      `input/${waitingId}/confirm`,
      `input/${waitingId}/${pick(hostileStrings)}`,
      `input/${pick(hostileStrings)}/confirm`,
      "input/",
      "input//",
      `input/${"f".repeat(32)}/confirm`,
      hostileValues(),
    ]);
    const response =
      rand() < 0.8
        ? { jsonrpc: "2.0", id, result: pick<unknown>([answerOf(badAnswers()), hostileValues()]) }
        : { jsonrpc: "2.0", id, error: { code: pick(hostileNumbers), message: pick(hostileStrings) } };
    return {
      method: "POST",
      path: "/mcp",
      headers,
      body: JSON.stringify(rand() < 0.2 ? [response, message()] : response),
    };
  }
  return { method: "POST", path: "/mcp", headers, body: JSON.stringify(message()) };
}

let taskId = "";
let waitingId = "";
let waitingBefore: unknown;
let beforeGet: unknown;
let beforeResult: unknown;
let beforeModern: unknown;
const modernGet = async () =>
  (await modern(server.url, "tasks/get", { taskId }, { capabilities: TASKS, token: "fuzz-token" })).body;
const last = (body: unknown) => (Array.isArray(body) ? body[body.length - 1] : body);

beforeAll(async () => {
  taskId = await startTask(server.url, "countdown", { seconds: 1 }, token);
  await vi.waitFor(async () => {
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } },
      { headers: token },
    );
    expect(reply.body).toMatchObject({ result: { status: "completed" } });
    beforeGet = reply.body;
  }, until(250));
  beforeResult = last(
    (await rpc(server.url, { jsonrpc: "2.0", id: 3, method: "tasks/result", params: { taskId } }, { headers: token }))
      .body,
  );
  // A deploy task waiting for its answer: hostile answers must leave it waiting, its question unchanged.
  const waiting = await rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "deploy", arguments: { service: "api", version: "v2" }, task: { ttl: 600_000 } },
    },
    { headers: token },
  );
  waitingId = (waiting.body as { result: { task: { taskId: string } } }).result.task.taskId;
  await vi.waitFor(async () => {
    const doc = (await (await fetch(`${server.url}/tasks/${waitingId}`, { headers: token })).json()) as {
      status: string;
    };
    expect(doc.status).toBe("input_required");
    waitingBefore = doc;
  }, until(250));
  beforeModern = await modernGet();
});

/** What an answer must never show: the runtime's own exceptions (a stack overflow, a failed clone, a stack trace). */
const INTERNAL =
  /call stack|RangeError|TypeError|ReferenceError|DataCloneError|SyntaxError|Internal error|\bat [\w.]+ \(/;

/** Sends `requests` a few at a time; the status histogram and every 5xx, dropped connection or internal name. */
async function fire(url: string, requests: FuzzRequest[], label: string): Promise<string[]> {
  const histogram = new Map<string, number>();
  const failures: string[] = [];
  let next = 0;
  // A few at a time: enough to overlap, not so many that a 2-core machine times out.
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < requests.length) {
        const index = next++;
        const r = requests[index];
        if (!r) break;
        try {
          const reply = await rawRequest(`${url}${r.path}`, {
            method: r.method,
            headers: r.headers,
            ...(r.body !== undefined && { body: r.body }),
            timeoutMs: 60_000,
          });
          histogram.set(String(reply.status), (histogram.get(String(reply.status)) ?? 0) + 1);
          if (reply.status >= 500)
            failures.push(
              `#${index} ${r.method} ${r.path.slice(0, 300)} → ${reply.status} ${reply.text.slice(0, 200)}`,
            );
          else if (INTERNAL.test(reply.text))
            failures.push(
              `#${index} ${r.method} ${r.path.slice(0, 300)} → ${reply.status} names an internal exception: ${reply.text.slice(0, 200)}`,
            );
        } catch (error) {
          histogram.set("error", (histogram.get("error") ?? 0) + 1);
          failures.push(`#${index} ${r.method} ${r.path.slice(0, 300)} → ${String(error)}`);
        }
      }
    }),
  );
  const sorted = [...histogram.entries()].sort(([a], [b]) => a.localeCompare(b));
  console.log(
    `fuzz seed ${SEED}: ${requests.length} ${label}, status histogram ${sorted.map(([s, n]) => `${s}×${n}`).join(", ")}`,
  );
  return failures;
}

/** The partial-output reader's `after` (docs/partial-results.md), hostile. */
const afterPaths = (taskId: string): string[] =>
  ["-1", "1e3", "99999999999999999999", "%00", "", "0x10", "1&after=2", "💥"].map(
    (after) => `/tasks/${taskId}?after=${after}`,
  );

describe(`fuzz (seed ${SEED})`, () => {
  it(`survives ${COUNT} hostile requests with no 5xx and leaves earlier tasks intact`, { timeout: 180_000 }, async ({
    expect,
  }) => {
    const failures = await fire(
      server.url,
      Array.from({ length: COUNT }, () => request()),
      "requests",
    );
    expect(failures).toEqual([]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const afterGet = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } },
      { headers: token },
    );
    expect(afterGet.body).toEqual(beforeGet);
    const afterResult = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 3, method: "tasks/result", params: { taskId } },
      { headers: token },
    );
    expect(last(afterResult.body)).toEqual(beforeResult);
    const waitingAfter = await (await fetch(`${server.url}/tasks/${waitingId}`, { headers: token })).json();
    // Its suggested poll interval grows while the question waits (docs/polling.md); the rest must not change.
    expect({ ...waitingAfter, pollInterval: 0 }).toEqual({ ...(waitingBefore as object), pollInterval: 0 });
    expect(await modernGet()).toEqual(beforeModern);
  });

  it(`survives ${OAUTH_COUNT} hostile requests to the open OAuth endpoints with no 5xx`, { timeout: 180_000 }, async ({
    expect,
  }) => {
    const failures = await fire(
      oauthServer.url,
      Array.from({ length: OAUTH_COUNT }, () => oauthRequest(dice)),
      "OAuth requests",
    );
    expect(failures).toEqual([]);
    expect((await fetch(`${oauthServer.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });
});
