/**
 * What one instrumented Worker (bench/scale/worker/entry.ts) counts: the operations Cloudflare
 * bills, as seen from inside the runtime. Locally every object of the script shares one isolate
 * with the Worker, so module state is one set of counters for all of them.
 */

/** A SQL statement's cursor; its row counts are final once the statement has run. */
export interface RowCounts {
  readonly rowsRead: number;
  readonly rowsWritten: number;
}

type Tally = Record<string, number>;

export interface CounterSnapshot {
  /** Worker invocations: HTTP requests and queue batches. */
  workerRequests: number;
  queueBatches: Tally;
  /** Messages sent (a write each), delivered (a read each), acked (a delete each), retried (another read later). */
  queueWrites: Tally;
  queueReads: Tally;
  queueAcks: Tally;
  queueRetries: Tally;
  /** Billed Durable Object requests by "Class.method" (each RPC call or fetch on a stub), counted at the caller. */
  doRequests: Tally;
  /** The same and alarms by "Class:objectId", to tell one task's object from the rest (the id pool's, the index's). */
  doRequestsByObject: Tally;
  alarmsByObject: Tally;
  alarms: Tally;
  webSocketMessagesIn: Tally;
  rowsRead: Tally;
  rowsWritten: Tally;
  /** `sql.exec` calls by class: each crosses into SQLite, and a statement is parsed the first time each database runs it. */
  sqlCalls: Tally;
  /** Rows written by "Class: statement" (its first words), to see where the writes come from. */
  rowsWrittenBy: Tally;
  /** Key-value and alarm calls on an object's storage, by "Class.method" (setAlarm is billed as one row written). */
  storageCalls: Tally;
  /** Milliseconds each class had at least one handler running, summed over objects (its billed duration, less idle tails). */
  activeMs: Tally;
  /** Distinct objects that ran a handler, per class. */
  objects: Tally;
}

const empty = (): CounterSnapshot => ({
  workerRequests: 0,
  queueBatches: {},
  queueWrites: {},
  queueReads: {},
  queueAcks: {},
  queueRetries: {},
  doRequests: {},
  doRequestsByObject: {},
  alarmsByObject: {},
  alarms: {},
  webSocketMessagesIn: {},
  rowsRead: {},
  rowsWritten: {},
  sqlCalls: {},
  rowsWrittenBy: {},
  storageCalls: {},
  activeMs: {},
  objects: {},
});

let counters = empty();
let cursors: { className: string; statement: string; cursor: RowCounts }[] = [];
const inFlight = new Map<string, { count: number; since: number }>();
const seen = new Set<string>();

export function add(tally: keyof Omit<CounterSnapshot, "workerRequests">, key: string, n = 1): void {
  const bucket = counters[tally];
  bucket[key] = (bucket[key] ?? 0) + n;
}

export function countWorkerRequest(): void {
  counters.workerRequests += 1;
}

/** Rows are summed when the counters are read: by then every statement has run. */
export function recordCursor(className: string, query: string, cursor: RowCounts): void {
  cursors.push({ className, statement: query.replace(/\s+/g, " ").trim().slice(0, 60), cursor });
}

/** A handler of `className` object `id` starts; the object is active from the first until the last ends. */
export function enter(className: string, id: string): void {
  const key = `${className}:${id}`;
  if (!seen.has(key)) {
    seen.add(key);
    add("objects", className);
  }
  const state = inFlight.get(key);
  if (state) state.count += 1;
  else inFlight.set(key, { count: 1, since: performance.now() });
}

export function leave(className: string, id: string): void {
  const key = `${className}:${id}`;
  const state = inFlight.get(key);
  if (!state) return;
  state.count -= 1;
  if (state.count > 0) return;
  inFlight.delete(key);
  add("activeMs", className, performance.now() - state.since);
}

export function snapshot(): CounterSnapshot {
  const result = structuredClone(counters);
  for (const { className, statement, cursor } of cursors) {
    result.rowsRead[className] = (result.rowsRead[className] ?? 0) + cursor.rowsRead;
    result.rowsWritten[className] = (result.rowsWritten[className] ?? 0) + cursor.rowsWritten;
    result.sqlCalls[className] = (result.sqlCalls[className] ?? 0) + 1;
    if (cursor.rowsWritten > 0)
      result.rowsWrittenBy[`${className}: ${statement}`] =
        (result.rowsWrittenBy[`${className}: ${statement}`] ?? 0) + cursor.rowsWritten;
  }
  return result;
}

export function reset(): void {
  counters = empty();
  cursors = [];
  seen.clear();
  // Handlers still running keep their start: their time counts from the reset.
  const now = performance.now();
  for (const state of inFlight.values()) state.since = now;
}
