/**
 * A webhook receiver the way the AI SDK's users build one: `experimental_createMCPEventWebhook`
 * (which verifies every POST's Standard Webhooks signature and answers the verification challenge)
 * over an in-memory MCPEventStore, mounted on a loopback HTTP server. It records what reached
 * `onEvent` and every raw POST, and can answer the next POSTs with a failure first.
 */
import { createServer } from "node:http";
import { experimental_createMCPEventWebhook } from "@ai-sdk/mcp";

type Store = Parameters<typeof experimental_createMCPEventWebhook>[0]["store"];
type Subscription = NonNullable<Awaited<ReturnType<Store["get"]>>>;

export interface ReceivedEvent {
  subscriptionId: string;
  eventId: string;
  name: string;
  data: Record<string, unknown>;
  cursor: string | null | undefined;
  /** When it reached the handler (ms since the epoch). */
  at: number;
}

export interface RawPost {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export interface EventReceiver {
  url: string;
  store: Store;
  events: ReceivedEvent[];
  gaps: string[];
  terminations: unknown[];
  posts: RawPost[];
  /** Answer the next `count` POSTs with `status` before the handler sees them. */
  failNext(count: number, status: number): void;
  /** Hold every POST (unanswered, unseen by the handler) until `release()`: a delivery in flight. */
  hold(): void;
  release(): void;
  /** POSTs held now. */
  held(): number;
  close(): Promise<void>;
}

export function memoryStore(): Store {
  const byKey = new Map<string, Subscription>();
  return {
    get: async (key) => byKey.get(key),
    getById: async (id) => [...byKey.values()].find((sub) => sub.id === id),
    set: async (subscription) => void byKey.set(subscription.key, structuredClone(subscription)),
    update: async (key, patch) => {
      const current = byKey.get(key);
      if (current) byKey.set(key, { ...current, ...patch });
    },
    delete: async (key) => void byKey.delete(key),
  };
}

export async function startEventReceiver(): Promise<EventReceiver> {
  const store = memoryStore();
  const events: ReceivedEvent[] = [];
  const gaps: string[] = [];
  const terminations: unknown[] = [];
  const posts: RawPost[] = [];
  let failures = { left: 0, status: 503 };
  let holding = false;
  const parked: { body: string; answer: () => void }[] = [];
  const handler = experimental_createMCPEventWebhook({
    store,
    onEvent: async ({ subscription, event }) => {
      events.push({
        subscriptionId: subscription.id,
        eventId: event.eventId,
        name: event.name,
        data: event.data,
        cursor: event.cursor,
        at: Date.now(),
      });
    },
    onGap: async ({ gap }) => void gaps.push(gap.cursor),
    onTerminated: async ({ termination }) => void terminations.push(termination.error),
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
      let status: number;
      let text = "";
      if (holding) {
        // Never answered: the server sees a delivery in flight until it dies or times out.
        parked.push({ body, answer: () => res.destroy() });
        return;
      }
      if (failures.left > 0) {
        failures = { ...failures, left: failures.left - 1 };
        status = failures.status;
      } else {
        const response = await handler(
          new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method ?? "POST", headers, body }),
        );
        status = response.status;
        text = await response.text();
      }
      posts.push({ path: req.url ?? "/", headers, body, status });
      res.writeHead(status, text === "" ? {} : { "content-type": "application/json" });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the receiver has no port");
  return {
    url: `http://127.0.0.1:${address.port}/hooks/mcp`,
    store,
    events,
    gaps,
    terminations,
    posts,
    failNext: (count, status) => {
      failures = { left: count, status };
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const request of parked.splice(0)) request.answer();
    },
    held: () => parked.length,
    close: () => {
      for (const request of parked.splice(0)) request.answer();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
