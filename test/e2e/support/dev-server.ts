/**
 * The one way an e2e file gets its `wrangler dev`: `sharedServer(vars)` borrows the server that
 * every file with the same settings uses (support/server-pool.ts starts it once); `ownServer(options)`
 * starts one for this file alone, for files that kill or restart it, read its output, or list the
 * anonymous principal's tasks (which other files' tasks on a shared server would change).
 * Both register the file's beforeAll/afterAll and hand back a handle that is live inside tests.
 */
import { afterAll, beforeAll, inject } from "vitest";
import { PoolAnswer, type PoolRequest } from "./server-pool";
import { startDevServer, type DevServer, type DevServerOptions } from "./wrangler-dev";
import type { z } from "zod";

/** What a test may use of a shared server: it is not this file's to stop, kill or restart. */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  logs(): string;
}

function live<T>(get: () => T | undefined): () => T {
  return () => {
    const value = get();
    if (value === undefined) throw new Error("the dev server is used outside a test (its beforeAll has not run)");
    return value;
  };
}

export function sharedServer(vars: Record<string, string> = {}): TestServer {
  let answer: z.infer<typeof PoolAnswer> | undefined;
  beforeAll(async () => {
    const request: z.infer<typeof PoolRequest> = { vars };
    const response = await fetch(inject("devServerPool"), { method: "POST", body: JSON.stringify(request) });
    if (!response.ok) throw new Error(`the shared dev server did not start: ${await response.text()}`);
    answer = PoolAnswer.parse(await response.json());
  });
  const now = live(() => answer);
  return {
    get url() {
      return now().url;
    },
    get port() {
      return now().port;
    },
    // The pool holds a shared server's output; it writes it to this file when the run ends.
    logs: () => `(shared server ${now().url}: its output is in ${now().logFile} after the run)`,
  };
}

/**
 * `options` may be a function, for settings known only once an earlier beforeAll has run (a
 * stand-in's URL) or made in one (an adopter's installed copy: support/adopter.ts).
 */
export function ownServer(
  options: DevServerOptions | (() => DevServerOptions | Promise<DevServerOptions>) = {},
): DevServer {
  let server: DevServer | undefined;
  beforeAll(async () => {
    server = await startDevServer(typeof options === "function" ? await options() : options);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const now = live(() => server);
  return {
    get url() {
      return now().url;
    },
    get port() {
      return now().port;
    },
    get stateDir() {
      return now().stateDir;
    },
    inspectorPort: () => now().inspectorPort(),
    logs: () => now().logs(),
    pid: () => now().pid(),
    kill: () => now().kill(),
    restart: () => now().restart(),
    stop: () => now().stop(),
  };
}
