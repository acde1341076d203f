/**
 * A diagnosis switch for the MCP tap (AGENTS_STRIP_PRIMING=1): drops every SSE event whose `data:` is
 * empty (the priming events) from the server's answers, to see how far an agent gets past that one
 * known problem (Gemini CLI's MCP client parses the empty data as JSON and drops the connection).
 */
import { Transform } from "node:stream";

export const STRIP_PRIMING = process.env["AGENTS_STRIP_PRIMING"] === "1";

/** Passes SSE through event by event, leaving out events with no data. */
export function stripPriming(): Transform {
  let pending = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending += chunk.toString("utf8");
      const events = pending.split(/\r?\n\r?\n/);
      pending = events.pop() ?? "";
      done(
        null,
        events
          .filter(hasData)
          .map((event) => `${event}\n\n`)
          .join(""),
      );
    },
    flush(done) {
      done(null, pending);
    },
  });
}

function hasData(event: string): boolean {
  return event.split(/\r?\n/).some((line) => line.startsWith("data:") && line.slice(5).trim() !== "");
}
