/**
 * The demo's story: connect with the MCP SDK's client, start `batch_process` as a task, follow it,
 * drop the connection halfway, look at the task while away, resume with Last-Event-ID, show the
 * result, and check that every progress value arrived exactly once.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DemoError } from "./explain.ts";
import { followUntil, resume, type FollowTarget } from "./follow-task.ts";
import type { Narrator } from "./narrator.ts";

export interface DemoOptions {
  url: URL;
  token: string | undefined;
  items: number;
  secondsPerItem: number;
  offlineSeconds: number;
}

/** What `resources/read task://{id}` returns (the fields the demo reads). */
const TaskDocumentSchema = z.object({
  status: z.string(),
  progress: z.object({ progress: z.number(), total: z.number().optional() }).optional(),
});

const RESUME_ATTEMPTS = 5;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

export async function runDemo(options: DemoOptions, narrator: Narrator): Promise<void> {
  const auth: Record<string, string> = options.token ? { Authorization: `Bearer ${options.token}` } : {};
  narrator.say(`connecting to ${options.url}`);
  const client = new Client({ name: "mcp-task-worker-demo", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(options.url, { requestInit: { headers: auth } });
  await client.connect(transport);
  try {
    const server = client.getServerVersion();
    narrator.say(
      `connected to ${server?.name ?? "the server"} ${server?.version ?? ""} (MCP ${transport.protocolVersion ?? "?"}, session ${transport.sessionId ?? "none"})`,
    );
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "batch_process");
    if (!tool || (tool.execution?.taskSupport ?? "forbidden") === "forbidden") {
      throw new DemoError(
        `The server at ${options.url} has no batch_process tool that runs as a task: point --url at an mcp-task-worker server.`,
      );
    }

    const created = await client.request(
      {
        method: "tools/call",
        params: {
          name: "batch_process",
          arguments: { items: options.items, secondsPerItem: options.secondsPerItem },
          task: { ttl: 600_000 },
          _meta: { progressToken: "demo" },
        },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    narrator.say(
      `created task ${taskId}: batch_process of ${options.items} items, ${options.secondsPerItem} s each. It runs on the server, not inside this connection.`,
    );

    const headers: Record<string, string> = {
      ...auth,
      "MCP-Protocol-Version": transport.protocolVersion ?? "2025-11-25",
      ...(transport.sessionId && { "Mcp-Session-Id": transport.sessionId }),
    };
    const target: FollowTarget = { url: options.url, headers, taskId, narrator, seen: [] };
    const dropAt = Math.ceil(options.items / 2);
    narrator.say(
      `following it on the tasks/result stream (POST /mcp answered as SSE); the connection will be dropped at item ${dropAt}`,
    );
    const first = await followUntil(target, dropAt);
    let result = first.result;
    let lastEventId = first.lastEventId;

    if (!result) {
      if (!lastEventId)
        throw new DemoError(
          "The stream carried no event id, so it cannot be resumed: this server does not support Last-Event-ID.",
        );
      if (first.dropped)
        narrator.say(
          `dropping the connection now, after event ${lastEventId} (item ${target.seen.at(-1)} of ${options.items})`,
        );
      narrator.say(`offline for ${options.offlineSeconds} s; the task keeps running on the server`);
      await sleep(options.offlineSeconds * 1000);
      const away = await readTask(client, taskId);
      const awayState = { progress: away.progress?.progress ?? 0, terminal: TERMINAL.has(away.status) };
      narrator.say(
        `meanwhile on the server: ${awayState.progress}/${options.items} items, status ${away.status} (resources/read task://${taskId})`,
      );
      for (let attempt = 1; !result && attempt <= RESUME_ATTEMPTS; attempt++) {
        narrator.say(
          `${attempt === 1 ? "reconnecting" : "the stream ended early; reconnecting again"}: GET /mcp with Last-Event-ID=${lastEventId}`,
        );
        const leg = await resume(target, lastEventId, awayState);
        result = leg.result;
        lastEventId = leg.lastEventId ?? lastEventId;
      }
      if (!result)
        throw new DemoError(`The task's stream kept ending without its result after ${RESUME_ATTEMPTS} reconnections.`);
    } else {
      narrator.say(
        "the task finished before the connection could be dropped: run with more --items or a larger --seconds-per-item",
      );
    }

    narrator.stop();
    report(result, target.seen, options.items, narrator);
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}

async function readTask(client: Client, taskId: string): Promise<z.infer<typeof TaskDocumentSchema>> {
  const read = await client.readResource({ uri: `task://${taskId}` });
  const first = read.contents[0];
  const parsed = first && "text" in first ? TaskDocumentSchema.safeParse(JSON.parse(first.text)) : undefined;
  if (!parsed?.success) throw new DemoError(`resources/read task://${taskId} did not return the task as JSON.`);
  return parsed.data;
}

/** The result, then the check the demo exists for: no progress value lost or repeated across the drop. */
function report(result: CallToolResult, seen: number[], items: number, narrator: Narrator): void {
  const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join(" ");
  // The summary repeats the text for models (docs/model-facing.md): print only the data beside it.
  const { summary: _summary, ...data } = result.structuredContent ?? {};
  const structured = Object.keys(data).length > 0 ? ` ${JSON.stringify(data)}` : "";
  if (result.isError) throw new DemoError(`The task failed: ${text}`);
  narrator.say(`result: ${text}${structured}`);
  const first = seen[0] ?? 1;
  const expected = Array.from({ length: items - first + 1 }, (_, i) => first + i);
  if (seen.length !== expected.length || seen.some((value, i) => value !== expected[i])) {
    throw new DemoError(
      `Progress did not arrive exactly once each: got ${seen.join(", ")}; expected ${expected.join(", ")}.`,
    );
  }
  narrator.say(
    `every progress value arrived exactly once, in order (${first} to ${items}), across the dropped connection`,
  );
}
