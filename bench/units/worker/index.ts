/**
 * Times the local runtime's unit operations from inside: `GET /{op}?n=N` runs one operation N
 * times in a row and answers when done, so the caller's (wall(N) − wall(0)) / N is one
 * operation's cost, with the HTTP request and the client taken out (bench/units.bench.ts).
 */
import { DurableObject } from "cloudflare:workers";

interface UnitEnv {
  PROBE: DurableObjectNamespace<Probe>;
}

/** What a TaskObject's create() sends: about the size of a real call's arguments. */
const PAYLOAD = {
  taskId: "0123456789abcdef0123456789abcdef",
  principal: "anonymous",
  tool: "batch_process",
  args: { items: 1, secondsPerItem: 0 },
  meta: { progressToken: "p-1", baseUrl: "http://127.0.0.1:8787" },
  createdAt: 1,
};

export class Probe extends DurableObject<UnitEnv> {
  async echo(value: typeof PAYLOAD): Promise<typeof PAYLOAD> {
    return value;
  }

  /** One more hop: this object calls another one, as a TaskObject calls the principal's index. */
  async relay(name: string): Promise<number> {
    return (await this.env.PROBE.getByName(name).echo(PAYLOAD)).createdAt;
  }

  /** A new object's tables, as `prepare` makes a pooled task's. */
  async tables(): Promise<void> {
    this.ctx.storage.sql.exec(`
      CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS steps (name TEXT PRIMARY KEY, value TEXT NOT NULL, at INTEGER NOT NULL);
    `);
  }

  /** `n` reads, one statement each, in one turn. */
  async reads(n: number): Promise<number> {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += this.ctx.storage.sql.exec<{ v: number }>("SELECT ? AS v", i).one().v;
    return sum;
  }

  /** `n` inserts in one turn: the runtime commits them together when the turn ends. */
  async writes(n: number): Promise<void> {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS rows (k INTEGER PRIMARY KEY, v TEXT NOT NULL)");
    for (let i = 0; i < n; i++) this.ctx.storage.sql.exec("INSERT INTO rows (v) VALUES (?)", JSON.stringify(PAYLOAD));
  }

  /** One insert, its own commit: its answer waits for the write to be confirmed (the output gate). */
  async commit(): Promise<void> {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS rows (k INTEGER PRIMARY KEY, v TEXT NOT NULL)");
    this.ctx.storage.sql.exec("INSERT INTO rows (v) VALUES (?)", JSON.stringify(PAYLOAD));
  }
}

type Op = (env: UnitEnv, n: number) => Promise<unknown>;

const fresh = (env: UnitEnv) => env.PROBE.getByName(`new-${crypto.randomUUID()}`);

const OPS: Record<string, Op> = {
  none: async () => undefined,
  rpc: async (env, n) => {
    const stub = env.PROBE.getByName("one");
    for (let i = 0; i < n; i++) await stub.echo(PAYLOAD);
  },
  "rpc-10-at-once": async (env, n) => {
    const stub = env.PROBE.getByName("one");
    for (let i = 0; i < n; i += 10) await Promise.all(Array.from({ length: 10 }, () => stub.echo(PAYLOAD)));
  },
  relay: async (env, n) => {
    const stub = env.PROBE.getByName("one");
    for (let i = 0; i < n; i++) await stub.relay("two");
  },
  "new-object": async (env, n) => {
    for (let i = 0; i < n; i++) await fresh(env).echo(PAYLOAD);
  },
  "new-object-tables": async (env, n) => {
    for (let i = 0; i < n; i++) await fresh(env).tables();
  },
  "sql-read": (env, n) => env.PROBE.getByName("one").reads(n),
  "sql-write": (env, n) => env.PROBE.getByName("one").writes(n),
  commit: async (env, n) => {
    const stub = env.PROBE.getByName("one");
    for (let i = 0; i < n; i++) await stub.commit();
  },
};

export default {
  async fetch(request: Request, env: UnitEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return new Response("ok\n");
    const op = OPS[url.pathname.slice(1)];
    const n = Number(url.searchParams.get("n") ?? "0");
    if (!op || !Number.isInteger(n) || n < 0 || n > 100_000)
      return new Response("unknown op or bad n\n", { status: 404 });
    await op(env, n);
    return new Response("ok\n");
  },
} satisfies ExportedHandler<UnitEnv>;
