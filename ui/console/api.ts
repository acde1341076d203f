/**
 * The console's calls to the data routes (`/tasks…`, same origin, same auth as `/mcp`). With
 * API keys the token lives in sessionStorage: this tab only, gone when it closes.
 */
import type * as z from "zod/mini";
import {
  AnswerBodySchema,
  ErrorBodySchema,
  TaskDocumentSchema,
  TaskListSchema,
  type TaskDocument,
  type TaskList,
} from "./schema";
import { documentPath } from "./state";

const TOKEN_KEY = "mcp-task-worker.console.token";

/** The server wants a (valid) token: the page shows the sign-in form. */
export class AuthRequired extends Error {
  constructor(
    readonly refused: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** Any other answer the page did not expect, with the server's own message when it gave one. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: z.infer<typeof ErrorBodySchema>,
  ) {
    super(message);
  }
}

export type CancelOutcome =
  | { ok: true; task: TaskDocument }
  | { ok: false; reason: "finished"; task?: TaskDocument; message: string }
  | { ok: false; reason: "gone" };

export type AnswerOutcome =
  | { ok: true; task: TaskDocument; message: string }
  | { ok: false; reason: "refused"; message: string; task?: TaskDocument }
  | { ok: false; reason: "gone" };

export class Api {
  private token: string | undefined;

  constructor(private readonly storage: Pick<Storage, "getItem" | "setItem" | "removeItem">) {
    this.token = storage.getItem(TOKEN_KEY) ?? undefined;
  }

  get hasToken(): boolean {
    return this.token !== undefined;
  }

  signIn(token: string): void {
    this.token = token;
    this.storage.setItem(TOKEN_KEY, token);
  }

  signOut(): void {
    this.token = undefined;
    this.storage.removeItem(TOKEN_KEY);
  }

  headers(extra: Record<string, string> = {}): Headers {
    const headers = new Headers(extra);
    if (this.token !== undefined) headers.set("Authorization", `Bearer ${this.token}`);
    return headers;
  }

  /** fetch on this origin with the token; a 401 becomes AuthRequired. */
  async fetch(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
    const response = await fetch(path, { ...init, headers: this.headers(init.headers), cache: "no-store" });
    if (response.status === 401) {
      const body = await errorBody(response);
      throw new AuthRequired(this.token !== undefined, body?.message ?? "This server wants a token.");
    }
    return response;
  }

  async list(cursor?: string): Promise<TaskList> {
    const response = await this.fetch(cursor === undefined ? "/tasks" : `/tasks?cursor=${encodeURIComponent(cursor)}`);
    return parse(response, TaskListSchema);
  }

  /**
   * The task document, or undefined once the task is gone (expired). With `after`, its pieces are
   * only those numbered after it: a reader that has pieces 1..N asks for what is new, not all again.
   */
  async get(taskId: string, after = 0): Promise<TaskDocument | undefined> {
    const response = await this.fetch(documentPath(taskId, after));
    if (response.status === 404) return undefined;
    return parse(response, TaskDocumentSchema);
  }

  async cancel(taskId: string): Promise<CancelOutcome> {
    const response = await this.fetch(`/tasks/${taskId}/cancel`, { method: "POST" });
    if (response.status === 404) return { ok: false, reason: "gone" };
    if (response.status === 409) {
      const body = await errorBody(response);
      return {
        ok: false,
        reason: "finished",
        message: body?.message ?? "The task has already finished.",
        ...(body?.task && { task: body.task }),
      };
    }
    return { ok: true, task: await parse(response, TaskDocumentSchema) };
  }

  /** Answers to a task's questions (`POST /tasks/{id}/input`): taken (the task after them), refused (why), or the task is gone. */
  async answer(taskId: string, responses: Record<string, unknown>): Promise<AnswerOutcome> {
    const response = await this.fetch(`/tasks/${taskId}/input`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(responses),
    });
    if (response.status === 404) return { ok: false, reason: "gone" };
    if (response.status === 400 || response.status === 409 || response.status === 422) {
      const body = await errorBody(response);
      return {
        ok: false,
        reason: "refused",
        message: body?.message ?? `The server refused the answer (${response.status}).`,
        ...(body?.task && { task: body.task }),
      };
    }
    const body = await parse(response, AnswerBodySchema);
    return { ok: true, task: body.task, message: body.message };
  }
}

async function errorBody(response: Response): Promise<z.infer<typeof ErrorBodySchema> | undefined> {
  try {
    const parsed = ErrorBodySchema.safeParse(await response.json());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function parse<T>(response: Response, schema: z.ZodMiniType<T>): Promise<T> {
  if (!response.ok) {
    const body = await errorBody(response);
    throw new HttpError(response.status, body?.message ?? `The server answered ${response.status}.`, body);
  }
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success)
    throw new HttpError(
      response.status,
      "The server's answer was not what this page expects (an older or newer server?).",
    );
  return parsed.data;
}
