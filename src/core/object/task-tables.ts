/**
 * Which of the TaskObject's tables (schema.ts) its database has. Each is created when first
 * written, not ahead: looking up an unknown or foreign task id, or discarding an unused
 * pre-provisioned one, then leaves no database behind. The first look moves a database written by
 * release 0.1 to this schema (release01-migration.ts).
 */
import { isRelease01, migrateRelease01 } from "./release01-migration";
import { CREATE, MEMO_TABLES, type JobTable } from "./schema";

/** Runs `fn` in one SQLite transaction (DurableObjectStorage.transactionSync). */
export type Transact = <T>(fn: () => T) => T;

export class TaskTables {
  /** Whether the task's own tables (task, events) exist; undefined until first checked. */
  private ready: boolean | undefined;
  /** The tables this database has. */
  private readonly names = new Set<string>();

  /** `foundEmpty` hears that the first look found no task table: the database holds nothing of a task. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly transact: Transact,
    private readonly foundEmpty: () => void,
  ) {}

  /** Whether the task table exists (the first call lists the tables and migrates 0.1's). */
  hasSchema(): boolean {
    if (this.ready === undefined) {
      this.list();
      if (isRelease01(this.names)) {
        this.transact(() => migrateRelease01(this.sql));
        this.list();
      }
      this.ready = this.names.has("task");
      if (!this.ready) this.foundEmpty();
    }
    return this.ready;
  }

  /** Whether `table` exists (and the task's own tables with it). */
  has(table: JobTable): boolean {
    return this.hasSchema() && this.names.has(nameOf(table));
  }

  /**
   * Creates the tables every task uses, in a database that has none yet (a pooled object's, ahead of
   * its task; after deleteAll(), so a reused instance keeps working). Every task is a new database,
   * so each statement here is parsed and run once per task: no AUTOINCREMENT (its sqlite_sequence
   * table is one more write per insert; rows are never deleted one by one, so a plain INTEGER
   * PRIMARY KEY never reuses a sequence number either).
   */
  ensureSchema(): void {
    if (this.hasSchema()) return;
    this.ready = true;
    this.sql.exec(`${CREATE.task}; ${CREATE.events};`);
    this.names.add("task").add("events");
  }

  /** Creates `table` if this database has none yet. */
  ensure(table: JobTable): void {
    const name = nameOf(table);
    if (this.names.has(name)) return;
    this.ensureSchema();
    this.sql.exec(CREATE[table]);
    this.names.add(name);
  }

  /** After deleteAll(): the database has no table until the next write. */
  dropped(): void {
    this.ready = false;
    this.names.clear();
  }

  private list(): void {
    this.names.clear();
    for (const row of this.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'"))
      this.names.add(row.name);
  }
}

const nameOf = (table: JobTable): string => (table === "pieces" ? table : MEMO_TABLES[table]);
