/**
 * A bare task Worker for bench/tails.bench.ts: no code of ours, only the storage calls one of our
 * countdown tasks makes (bench/scale.bench.ts counts them; docs/peers.md lists them), so its tails
 * are the local runtime's own. `POST /create?id=X` admits the task in the principal's index, then
 * the task's object writes it (record, two events, the alarm) and starts its "job" just after
 * answering: the memoized start step at once, one progress event and the end a second later.
 * Meanwhile the Worker makes the next pooled object's tables, as our id pool does. `&split=1` runs
 * the job in an object of its own that reports its end, so the task's object writes nothing after
 * answering. `GET /get?id=X` reads the record, as `tasks/get` does. `POST /call?id=X` is a plain call
 * of a tool that ends at once: the task's object runs its "job" (one step) and answers with nothing
 * written, then writes the task 20 ms later (record, three events, the alarm), as ours does
 * (src/core/object/launch.ts); the index hears of it, and the next pooled object is made.
 */
import { DurableObject } from "cloudflare:workers";

interface BareEnv {
  TASK: DurableObjectNamespace<BareTask>;
  INDEX: DurableObjectNamespace<BareIndex>;
}

/** About the size of a real task's record and arguments. */
const RECORD = JSON.stringify({
  principal: "anonymous",
  tool: "countdown",
  args: { seconds: 1 },
  meta: { progressToken: "p-1", baseUrl: "http://127.0.0.1:8787" },
  run: { phase: "running", leaseId: "0123456789abcdef0123456789abcdef", attempts: 1 },
  ttlMs: 3_600_000,
});

export class BareIndex extends DurableObject<BareEnv> {
  async admit(taskId: string, status: string): Promise<void> {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, status TEXT, at INTEGER)");
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?)", taskId, status, Date.now());
  }
}

export class BareTask extends DurableObject<BareEnv> {
  private readonly sql = this.ctx.storage.sql;

  /** The three tables a task's object has (our id pool makes them ahead of its creation). */
  async prepare(): Promise<void> {
    this.tables();
  }

  private tables(): void {
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL, status TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS steps (name TEXT PRIMARY KEY, value TEXT NOT NULL, at INTEGER NOT NULL);
    `);
  }

  async create(taskId: string, split: boolean): Promise<string> {
    await this.prepare();
    this.save("working");
    this.event("created");
    this.event("running");
    await this.ctx.storage.setAlarm(Date.now() + 30_000);
    if (split) this.ctx.waitUntil(this.env.TASK.getByName(`${taskId}-job`).job(taskId));
    else this.ctx.waitUntil(this.runJob(taskId, () => this.end()));
    return taskId;
  }

  /** A plain call that ends in its first moments: the answer first, the task's writes just after it. */
  async call(): Promise<string> {
    const result = JSON.stringify({ content: [{ type: "text", text: "Processed 1 items." }] });
    setTimeout(() => {
      this.tables();
      this.save("completed");
      this.event("created");
      this.event("running");
      this.event("completed");
      this.ctx.waitUntil(this.ctx.storage.setAlarm(Date.now() + 3_600_000));
    }, 20);
    return result;
  }

  async get(): Promise<string | undefined> {
    return this.sql.exec<{ record: string }>("SELECT record FROM task WHERE id = 1").toArray()[0]?.record;
  }

  /** The job in an object of its own: its step here, its end reported to the task's object. */
  async job(taskId: string): Promise<void> {
    await this.prepare();
    await this.runJob(taskId, () => this.env.TASK.getByName(taskId).end());
  }

  async end(): Promise<void> {
    this.event("progress");
    this.save("completed");
    this.event("completed");
    await this.ctx.storage.setAlarm(Date.now() + 3_600_000);
  }

  override async alarm(): Promise<void> {}

  private async runJob(taskId: string, end: () => Promise<void>): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.sql.exec("INSERT OR REPLACE INTO steps VALUES ('started', ?, ?)", String(Date.now()), Date.now());
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await end();
    await this.env.INDEX.getByName("anonymous").admit(taskId, "completed");
  }

  private save(status: string): void {
    this.sql.exec("INSERT OR REPLACE INTO task VALUES (1, ?, ?)", RECORD, status);
  }

  private event(type: string): void {
    this.sql.exec("INSERT INTO events (type, data, at) VALUES (?, ?, ?)", type, RECORD, Date.now());
  }
}

/** Ids whose objects were made ahead (our principal's id pool, in this isolate's memory). */
const pooled: string[] = [];
/** The object each client-given id was created on (a pooled one, as ours swaps in a pre-provisioned id). */
const objectOf = new Map<string, string>();

export default {
  async fetch(request: Request, env: BareEnv, ctx: ExecutionContext): Promise<Response> {
    const refill = async () => {
      if (pooled.length >= 8) return;
      const next = crypto.randomUUID();
      await env.TASK.getByName(next).prepare();
      pooled.push(next);
    };
    const url = new URL(request.url);
    const id = url.searchParams.get("id") ?? "";
    if (url.pathname === "/health") return Response.json({ ok: true });
    if (url.pathname === "/get") {
      const record = await env.TASK.getByName(objectOf.get(id) ?? id).get();
      return record === undefined ? new Response("no such task", { status: 404 }) : new Response(record);
    }
    if (url.pathname === "/call" && request.method === "POST") {
      // A pooled object if there is one, as ours takes a pre-provisioned id.
      const taskId = pooled.pop() ?? crypto.randomUUID();
      const result = await env.TASK.getByName(taskId).call();
      ctx.waitUntil(env.INDEX.getByName("anonymous").admit(taskId, "completed"));
      ctx.waitUntil(refill());
      return new Response(result);
    }
    if (url.pathname === "/create" && request.method === "POST") {
      await env.INDEX.getByName("anonymous").admit(id, "working");
      const object = pooled.pop() ?? id;
      objectOf.set(id, object);
      const taskId = await env.TASK.getByName(object).create(object, url.searchParams.get("split") === "1");
      // The next pooled id's object, made after the answer as our pool does.
      ctx.waitUntil(refill());
      return Response.json({ taskId });
    }
    return new Response("not found", { status: 404 });
  },
} satisfies ExportedHandler<BareEnv>;
