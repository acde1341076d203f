// A dropped tasks/result stream resumed with Last-Event-ID inside a 2025 session whose GET stream is
// open (docs/streams.md, "Who hears what"): across every stream of the session (the GET stream, the
// dropped stream, the resumed one) each progress value arrives exactly once, at every gap between
// the drop and the resume. The gap is counted in the task's own progress, not in wall-clock time.
// And a question delivered by a resumed GET stream's replay is not asked again by a tasks/result.
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { DEPLOY, waitForStatus, YES } from "./support/hitl";
import { rpc } from "./support/mcp";
import { openSse, type SseReader } from "./support/sse-reader";
import { until } from "../until";

const server = sharedServer();
const SECONDS = 8;

interface Message {
  id?: string | number;
  method?: string;
  params?: { progress?: number; progressToken?: string | number };
  result?: unknown;
  error?: unknown;
}

/** Reads messages (with their event ids) into `into` until `stop` holds; priming events carry only an id. */
async function readInto(
  stream: SseReader,
  into: { id: string; message: Message }[],
  stop: () => boolean,
): Promise<void> {
  while (!stop()) {
    const event = await stream.next();
    if (!event) return;
    if (event.data) into.push({ id: event.id ?? "", message: JSON.parse(event.data) as Message });
    else if (event.id) into.push({ id: event.id, message: {} });
  }
}

const progressOf = (got: { message: Message }[], token: string) =>
  got
    .filter(({ message }) => message.method === "notifications/progress" && message.params?.progressToken === token)
    .map(({ message }) => message.params?.progress);

async function taskProgress(taskId: string): Promise<number> {
  const doc = (await (await fetch(`${server.url}/tasks/${taskId}`)).json()) as { progress?: { progress: number } };
  return doc.progress?.progress ?? 0;
}

/**
 * The sequence of the report: a session with its GET stream open calls countdown as a task with a
 * progressToken, POSTs tasks/result, drops it after two progress notifications, waits until the task
 * has made `gap` more progress, and resumes with GET /mcp and the last Last-Event-ID.
 */
async function dropAndResume(capabilities: Record<string, unknown>, gap: number) {
  const init = await rpc(server.url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "resume", version: "1" } },
  });
  const session = { "Mcp-Session-Id": init.headers.get("Mcp-Session-Id") ?? "", "MCP-Protocol-Version": "2025-11-25" };
  const onGet: { id: string; message: Message }[] = [];
  const get = await openSse(`${server.url}/mcp`, { headers: { ...session, Accept: "text/event-stream" } });
  await readInto(get, onGet, () => onGet.length > 0); // the priming event: the reader is attached
  const getting = readInto(get, onGet, () => progressOf(onGet, "sentinel").length > 0);

  const post = { ...session, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const created = await rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: SECONDS }, task: {}, _meta: { progressToken: "cd" } },
    },
    { headers: session },
  );
  const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
  const first = await openSse(`${server.url}/mcp`, {
    method: "POST",
    headers: post,
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } }),
  });
  const onFirst: { id: string; message: Message }[] = [];
  await readInto(first, onFirst, () => progressOf(onFirst, "cd").length >= 2);
  first.drop();
  const dropAt = Math.max(...progressOf(onFirst, "cd").map(Number));
  if (gap > 0) await vi.waitFor(async () => expectProgress(await taskProgress(taskId), dropAt + gap), until(50));

  const lastEventId = onFirst.at(-1)?.id ?? "";
  const resumed = await openSse(`${server.url}/mcp`, {
    headers: { ...session, Accept: "text/event-stream", "Last-Event-ID": lastEventId },
  });
  const onResumed: { id: string; message: Message }[] = [];
  await readInto(resumed, onResumed, () =>
    onResumed.some(({ message }) => message.id === 2 && ("result" in message || "error" in message)),
  );
  resumed.drop();

  // A second task's progress on the GET stream marks the point by which everything of the first has reached it.
  await rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 1 }, task: {}, _meta: { progressToken: "sentinel" } },
    },
    { headers: session },
  );
  await getting;
  get.drop();
  return {
    onGet: progressOf(onGet, "cd"),
    onFirst: progressOf(onFirst, "cd"),
    onResumed: progressOf(onResumed, "cd"),
    response: onResumed.at(-1)?.message,
  };
}

function expectProgress(actual: number, atLeast: number): void {
  if (actual < atLeast) throw new Error(`progress ${actual}, waiting for ${atLeast}`);
}

const ALL = Array.from({ length: SECONDS }, (_, i) => i + 1);

describe("a dropped tasks/result stream resumed in a session with its GET stream open", () => {
  for (const [name, capabilities] of [
    ["a client that declared tasks", { tasks: {} }],
    ["a client that declared nothing", {}],
  ] as const) {
    it(`${name}: every progress value exactly once across all streams, at gaps of 0, 1 and 3 values`, async ({
      expect,
    }) => {
      const runs = await Promise.all([0, 1, 3].map((gap) => dropAndResume(capabilities, gap)));
      for (const [i, run] of runs.entries()) {
        const every = [...run.onGet, ...run.onFirst, ...run.onResumed].map(Number).sort((a, b) => a - b);
        expect(
          every,
          `gap ${[0, 1, 3][i]}: GET ${run.onGet} / first ${run.onFirst} / resumed ${run.onResumed}`,
        ).toEqual(ALL);
        expect(run.response).toMatchObject({
          id: 2,
          result: { content: [{ text: `Countdown of ${SECONDS} s finished.` }] },
        });
      }
    });
  }
});

describe("a question delivered by a GET stream resumed across it", () => {
  it("is not asked again by a tasks/result the client opens afterwards", async ({ expect }) => {
    const init = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "resume", version: "1" },
      },
    });
    const session = {
      "Mcp-Session-Id": init.headers.get("Mcp-Session-Id") ?? "",
      "MCP-Protocol-Version": "2025-11-25",
    };
    const post = { ...session, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const get = await openSse(`${server.url}/mcp`, { headers: { ...session, Accept: "text/event-stream" } });
    const primed: { id: string; message: Message }[] = [];
    await readInto(get, primed, () => primed.length > 0);
    get.drop();
    // The GET stream's reader is gone; a write shows it (a countdown's progress), so the question
    // that follows finds no reader and waits in the session's log.
    const warm = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { seconds: 2 }, task: {}, _meta: { progressToken: "warm" } },
      },
      { headers: session },
    );
    await waitForStatus(
      server.url,
      (warm.body as { result: { task: { taskId: string } } }).result.task.taskId,
      "completed",
    );
    const created = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "deploy", arguments: DEPLOY, task: {} } },
      { headers: session },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    await waitForStatus(server.url, taskId, "input_required");

    const questionsIn = (got: { message: Message }[]) =>
      got.filter(({ message }) => message.method === "elicitation/create").length;
    const resumed = await openSse(`${server.url}/mcp`, {
      headers: { ...session, Accept: "text/event-stream", "Last-Event-ID": primed[0]?.id ?? "" },
    });
    const onResumed: { id: string; message: Message }[] = [];
    await readInto(resumed, onResumed, () => questionsIn(onResumed) > 0);

    const result = await openSse(`${server.url}/mcp`, {
      method: "POST",
      headers: post,
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tasks/result", params: { taskId } }),
    });
    const onResult: { id: string; message: Message }[] = [];
    await readInto(result, onResult, () => onResult.length > 0); // the priming event: the stream is registered and asked what it would ask
    const answered = await fetch(`${server.url}/tasks/${taskId}/input`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ confirm: YES }),
    });
    expect(answered.status).toBe(200);
    await readInto(result, onResult, () =>
      onResult.some(({ message }) => message.id === 3 && ("result" in message || "error" in message)),
    );
    resumed.drop();
    expect(
      questionsIn(onResumed) + questionsIn(onResult),
      `resumed GET: ${questionsIn(onResumed)}, tasks/result: ${questionsIn(onResult)}`,
    ).toBe(1);
  });
});
