/**
 * Reads an SSE response incrementally, so a test can stop (drop the connection) after
 * any event and resume with Last-Event-ID.
 */
import { parseSse, type ParsedSseEvent } from "./mcp";

export interface SseReader {
  status: number;
  headers: Headers;
  /** The next event; undefined once the stream has ended. */
  next(timeoutMs?: number): Promise<ParsedSseEvent | undefined>;
  /** Raw text received so far (comments, retry lines included). */
  raw(): string;
  /** Drop the connection, as a network failure would. */
  drop(): void;
}

export async function openSse(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    body: init.body,
    signal: controller.signal,
  });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let all = "";
  const queue: ParsedSseEvent[] = [];
  let ended = false;
  let pending: Promise<boolean> | undefined;

  const pump = async (): Promise<boolean> => {
    if (!reader || ended) return false;
    try {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return false;
      }
      const text = decoder.decode(value, { stream: true });
      buffer += text;
      all += text;
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop() ?? "";
      for (const block of blocks) {
        const events = parseSse(`${block}\n\n`);
        // parseSse drops events without data; keep id-only (priming) events too.
        if (events.length === 0 && /^id: /m.test(block))
          queue.push({ id: /^id: (.*)$/m.exec(block)?.[1] ?? "", data: "" });
        queue.push(...events);
      }
      return true;
    } catch {
      ended = true;
      return false;
    }
  };

  return {
    status: response.status,
    headers: response.headers,
    raw: () => all,
    async next(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        const remaining = deadline - Date.now();
        pending ??= pump().finally(() => (pending = undefined));
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<"timeout">(
          (resolve) => (timer = setTimeout(() => resolve("timeout"), Math.max(0, remaining))),
        );
        const outcome = await Promise.race([pending, timeout]);
        clearTimeout(timer);
        if (outcome === "timeout") throw new Error(`no SSE event within ${timeoutMs} ms; got so far:\n${all}`);
        if (!outcome && queue.length === 0) return undefined;
      }
      return queue.shift();
    },
    drop() {
      ended = true;
      controller.abort();
    },
  };
}
