/**
 * SessionObject: what an `Mcp-Session-Id` session needs across isolates (negotiated
 * version, client capabilities, subscriptions, its GET stream's event log). The GET
 * stream's reader is a hibernatable WebSocket, so an idle session can leave memory.
 */
import { DurableObject } from "cloudflare:workers";
import { readSettings } from "../config";
import { isRecord } from "../json";
import { parseTaskResourceUri, taskObjectName, type TaskObjectsEnv } from "../core";
import { sendsPrimingEvents } from "../protocol/priming";
import { replayPages } from "../streams/replay";
import { closeQuietly, completeClose, sendQuietly } from "../streams/websockets";
import { SESSION_WATCH_STATE } from "./ids";
import { OpenCalls } from "./open-calls";
import { SessionStorage, type SessionInfo } from "./session-storage";

const READER_TAG = "reader";
/** lastSeenAt is written at most this often, so validating a session rarely writes. */
const TOUCH_EVERY_MS = 60_000;
/** How long a new reader waits for a probed old reader to prove dead before a 409. */
const PROBE_WAIT_MS = 1500;
const PROBE_FRAME = JSON.stringify({ probe: 1 });

export type NewSession = Omit<SessionInfo, "createdAt" | "lastSeenAt">;

/** What a publish did: how many readers got the messages live, and their sequence numbers in the log. */
export interface Published {
  readers: number;
  seqs: number[];
}

/** What a request in the session needs to know of it. */
export interface LiveSession {
  sessionId: string;
  protocolVersion: string;
  /** The client declared the tasks capability in `initialize`: only then does it get task notifications (docs/streams.md). */
  clientTasks: boolean;
  /** The client declared form-mode elicitation: it can be asked a task's questions (`elicitation/create`). */
  clientElicitation: boolean;
}

const declaresTasks = (capabilities: Record<string, unknown>): boolean => isRecord(capabilities["tasks"]);
/** `elicitation: {}` means form mode (the spec's backwards-compatible reading); `{ url: {} }` alone does not. */
const declaresFormElicitation = (capabilities: Record<string, unknown>): boolean => {
  const elicitation = capabilities["elicitation"];
  if (!isRecord(elicitation)) return false;
  return isRecord(elicitation["form"]) || !isRecord(elicitation["url"]);
};

/** The 2025 sessions' binding: the template's own 2025-11-25 endpoint needs it; an adopter's lanes do not. */
export interface SessionsEnv {
  SESSIONS: DurableObjectNamespace<SessionObject>;
}

export class SessionObject extends DurableObject<TaskObjectsEnv> {
  private readonly storage: SessionStorage;
  private readonly openCalls: OpenCalls;
  private readonly idleTtlMs: number;
  private readonly inlineWaitMs: number;

  constructor(ctx: DurableObjectState, env: TaskObjectsEnv) {
    super(ctx, env);
    this.storage = new SessionStorage(ctx.storage.sql);
    this.openCalls = new OpenCalls(ctx.storage);
    // A session unused for this long is deleted (SESSION_IDLE_TTL_MS).
    const settings = readSettings(env);
    this.idleTtlMs = settings.sessionIdleTtlMs;
    this.inlineWaitMs = settings.inlineWaitMs;
  }

  // ---- RPC interface -------------------------------------------------------

  async start(session: NewSession): Promise<void> {
    if (this.storage.load()) return;
    const now = Date.now();
    this.storage.save({ ...session, createdAt: now, lastSeenAt: now });
    await this.ctx.storage.setAlarm(now + this.idleTtlMs);
  }

  /** The session, marking it as used; undefined for an unknown or ended session. */
  async touch(): Promise<LiveSession | undefined> {
    const info = this.storage.load();
    if (!info) return undefined;
    const now = Date.now();
    if (now - info.lastSeenAt >= TOUCH_EVERY_MS) this.storage.save({ ...info, lastSeenAt: now });
    return {
      sessionId: info.sessionId,
      protocolVersion: info.protocolVersion,
      clientTasks: declaresTasks(info.capabilities),
      clientElicitation: declaresFormElicitation(info.capabilities),
    };
  }

  /** Ends the session: readers are closed, task watches removed, storage wiped. */
  async end(): Promise<boolean> {
    const info = this.storage.load();
    if (!info) return false;
    for (const ws of this.ctx.getWebSockets(READER_TAG)) closeQuietly(ws, 1000, "session ended");
    await Promise.all(
      this.storage.subscriptions().map(async (uri) => {
        const taskId = parseTaskResourceUri(uri);
        if (!taskId) return;
        await this.env.TASKS.getByName(taskObjectName(info.principal, taskId))
          .detachState(SESSION_WATCH_STATE, info.sessionId)
          .catch((error: unknown) => console.error("unwatch failed", taskId, error));
      }),
    );
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.storage.ensureSchema();
    return true;
  }

  async subscribe(uri: string): Promise<boolean> {
    if (!this.storage.load()) return false;
    this.storage.subscribe(uri);
    return true;
  }

  async unsubscribe(uri: string): Promise<boolean> {
    if (!this.storage.load()) return false;
    this.storage.unsubscribe(uri);
    return true;
  }

  async subscriptions(): Promise<string[]> {
    return this.storage.load() ? this.storage.subscriptions() : [];
  }

  /**
   * Appends serialized JSON-RPC messages to the GET stream's log and sends them to its reader.
   * Returns how many readers got them live (0: kept for a resume only) and each message's sequence
   * number, or false if the session is gone (the caller should stop publishing to it).
   */
  async publish(messages: string[]): Promise<Published | false> {
    if (!this.storage.load()) return false;
    const now = Date.now();
    const readers = this.ctx.getWebSockets(READER_TAG);
    const seqs: number[] = [];
    for (const data of messages) {
      const event = this.storage.append(data, now);
      seqs.push(event.seq);
      const frame = JSON.stringify(event);
      for (const ws of readers) sendQuietly(ws, frame);
    }
    const last = seqs.at(-1);
    if (readers.length > 0 && last !== undefined) this.storage.markDelivered(last);
    return { readers: readers.length, seqs };
  }

  /**
   * A plain call of this session is open and owns `taskId` for at most `forMs` more (its deadline:
   * open-calls.ts); false if the session is gone. A caller of the release before this one sends no
   * `forMs`: its call waits at most the inline budget.
   */
  async openCall(requestId: string, taskId: string, forMs?: number): Promise<boolean> {
    if (!this.storage.load()) return false;
    const bound = typeof forMs === "number" && Number.isFinite(forMs) ? Math.min(forMs, this.inlineWaitMs) : undefined;
    await this.openCalls.open(requestId, taskId, bound ?? this.inlineWaitMs);
    return true;
  }

  async closeCall(requestId: string, taskId: string): Promise<void> {
    await this.openCalls.close(requestId, taskId);
  }

  /** The task of the open call a `notifications/cancelled` names, taken once; undefined once it has answered. */
  async takeOpenCall(requestId: string): Promise<string | undefined> {
    return this.openCalls.take(requestId);
  }

  /** The highest sequence number of the GET stream handed to a reader, live or in a resume's replay (0: none yet). */
  async deliveredThrough(): Promise<number> {
    return this.storage.deliveredThrough();
  }

  // ---- the GET stream: one hibernatable WebSocket reader --------------------

  /**
   * `/stream?after=N` replays the log after N, then streams live. Without `after`, or with one past
   * the log (an id this stream never wrote), the stream starts fresh at the current end. Statuses:
   * 404 unknown session or malformed sequence, 410 events already trimmed, 409 another reader is
   * attached (unless resuming: a resume takes the stream over, its old reader usually being a dead
   * connection). The priming frame goes only to a session whose version defines priming events.
   */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/stream" || request.headers.get("Upgrade") !== "websocket")
      return new Response("Not found", { status: 404 });
    const info = this.storage.load();
    if (!info) return new Response("No such session.", { status: 404 });
    const lastSeq = this.storage.lastSeq();
    const afterParam = url.searchParams.get("after");
    const requested = afterParam === null ? undefined : Number(afterParam);
    if (requested !== undefined && (!Number.isSafeInteger(requested) || requested < 0)) {
      return new Response("No such event in this session's stream.", { status: 404 });
    }
    // Past the log, nothing can be replayed: the reconnect gets a fresh stream, as one without an id does.
    const resuming = requested !== undefined && requested <= lastSeq;
    const after = resuming ? requested : lastSeq;
    if (after < this.storage.firstSeq() - 1) return new Response("Those events are no longer kept.", { status: 410 });
    if (!resuming && !(await this.readerGone()))
      return new Response("The session's GET stream already has a reader.", { status: 409 });
    for (const ws of this.ctx.getWebSockets(READER_TAG)) closeQuietly(ws, 4409, "replaced by a resumed stream");

    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [READER_TAG]);
    // A priming frame (id, no message) first, so the client always holds a resume point; only for
    // versions that define it (older SDKs JSON-parse the empty data and drop the server).
    if (sendsPrimingEvents(info.protocolVersion)) server.send(JSON.stringify({ seq: after, data: "" }));
    replayPages(
      (seq, limit) => this.storage.eventsAfter(seq, limit),
      after,
      500,
      (page) => {
        for (const event of page) server.send(JSON.stringify(event));
      },
    );
    // The replay ran to the end of the log in this turn: everything in it has now reached a reader.
    if (lastSeq > after) this.storage.markDelivered(lastSeq);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * True when no reader is attached, or the attached one turns out to be a dead client:
   * the reader's Worker writes to its SSE response when probed, and a failed write closes it.
   */
  private async readerGone(): Promise<boolean> {
    if (this.ctx.getWebSockets(READER_TAG).length === 0) return true;
    for (let waited = 0; waited < PROBE_WAIT_MS; waited += 50) {
      // Probe twice: the first write to a dead connection may only be buffered.
      if (waited % 500 === 0) for (const ws of this.ctx.getWebSockets(READER_TAG)) sendQuietly(ws, PROBE_FRAME);
      await scheduler.wait(50);
      if (this.ctx.getWebSockets(READER_TAG).length === 0) return true;
    }
    return false;
  }

  override async webSocketMessage(): Promise<void> {
    // The reader only listens.
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    completeClose(ws, code);
  }

  // ---- idle expiry -----------------------------------------------------------

  override async alarm(): Promise<void> {
    const info = this.storage.load();
    if (!info) return;
    const now = Date.now();
    const idleUntil = info.lastSeenAt + this.idleTtlMs;
    // An attached reader is activity too: a client listening on its GET stream is not idle.
    if (idleUntil > now || this.ctx.getWebSockets(READER_TAG).length > 0) {
      await this.ctx.storage.setAlarm(Math.max(idleUntil, now + 60_000));
      return;
    }
    await this.end();
  }
}
