/**
 * A stand-in model API on loopback for driving real agent CLIs: one HTTP server that speaks the
 * wire each agent expects (Chat Completions, Responses, Gemini), plays the scripted model and records
 * every request, which is exactly what a real model would have been sent. Anything else it is asked
 * (model lists, telemetry) gets an empty but well-formed answer.
 */
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import { decide, type Script } from "./model-script";
import type { ModelTurn, Wire } from "./model-turn";

export interface ModelApi {
  url: string;
  script(script: Script | undefined): void;
  /** Every model request so far, in order. */
  turns(): ModelTurn[];
  /** Paths asked that no wire serves (to diagnose an agent asking for something else). */
  strays(): string[];
  /** The first turn from the `from`-th on (past or future) that `match` accepts; rejects after `timeoutMs`. */
  waitForTurn(match: (turn: ModelTurn) => boolean, timeoutMs: number, what: string, from?: number): Promise<ModelTurn>;
  close(): Promise<void>;
}

const MODELS = { object: "list", data: [{ id: "standin", object: "model", created: 0, owned_by: "standin" }] };

export async function startModelApi(wire: Wire): Promise<ModelApi> {
  const recorded: ModelTurn[] = [];
  const strays: string[] = [];
  const arrivals = new EventEmitter();
  let current: Script | undefined;

  const server = createServer((req, res) => {
    void readBody(req)
      .then((text) => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        if (!wire.serves(req.method ?? "GET", url.pathname)) {
          strays.push(`${req.method ?? "?"} ${url.pathname}`);
          res.writeHead(200, { "content-type": "application/json" });
          return res.end(JSON.stringify(url.pathname.endsWith("/models") ? MODELS : {}));
        }
        const turn = wire.read(JSON.parse(text), url.pathname, url.searchParams);
        recorded.push(turn);
        arrivals.emit("turn", turn);
        const reply = decide(turn, current);
        const answer = wire.answer(turn, reply);
        res.writeHead(200, { "content-type": answer.contentType, "cache-control": "no-cache" });
        // A stream's headers go out at once, as a model that is thinking sends them.
        if (answer.contentType === "text/event-stream") res.flushHeaders();
        const wait = reply.kind === "call" ? (reply.afterMs ?? 0) : 0;
        setTimeout(() => res.end(answer.body), wait);
      })
      .catch((error: unknown) => {
        // A request the harness cannot read is the harness's bug: say so loudly where the agent shows it.
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `stand-in model API: ${String(error)}` } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the stand-in model API has no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    script: (script) => (current = script),
    turns: () => [...recorded],
    strays: () => [...strays],
    waitForTurn(match, timeoutMs, what, from = 0) {
      const found = recorded.slice(from).find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onTurn = (turn: ModelTurn) => {
          if (!match(turn)) return;
          clearTimeout(timer);
          arrivals.off("turn", onTurn);
          resolve(turn);
        };
        const timer = setTimeout(() => {
          arrivals.off("turn", onTurn);
          reject(
            new Error(`the model was not sent ${what} within ${timeoutMs} ms (${recorded.length} requests so far)`),
          );
        }, timeoutMs);
        arrivals.on("turn", onTurn);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}
