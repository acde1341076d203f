/**
 * The e2e suite's global setup: one `wrangler dev` per distinct set of settings, started when a
 * test file first asks for it and shared by every file that asks for the same settings (a start
 * costs seconds of CPU on this 2-core machine). Files ask through support/dev-server.ts; the pool
 * answers on a loopback port whose URL it `provide`s to the workers. All servers stop at the end.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { z } from "zod";
import { startDevServer, type DevServer } from "./wrangler-dev";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where support/dev-server.ts asks for a shared server. */
    devServerPool: string;
  }
}

/** What a test file asks for: the server's vars (its settings). */
export const PoolRequest = z.object({ vars: z.record(z.string(), z.string()) });
export const PoolAnswer = z.object({ url: z.string(), port: z.number(), logFile: z.string() });

/** One key per set of settings, whatever the order its vars were written in. */
export const settingsKey = (vars: Record<string, string>) =>
  JSON.stringify(Object.entries(vars).sort(([a], [b]) => (a < b ? -1 : 1)));

const LOG_DIR = resolve(import.meta.dirname, "../../../.test-results/e2e-servers");

async function body(request: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of request) text += String(chunk);
  return JSON.parse(text);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = new Map<string, { started: Promise<DevServer>; logFile: string }>();
  const pool = createServer((request, response) => {
    void (async () => {
      try {
        const { vars } = PoolRequest.parse(await body(request));
        const key = settingsKey(vars);
        let entry = servers.get(key);
        if (!entry) {
          entry = { started: startDevServer({ vars }), logFile: join(LOG_DIR, `server-${servers.size + 1}.log`) };
          servers.set(key, entry);
          // A server that failed to start is forgotten, so the next file tries again.
          entry.started.catch(() => servers.delete(key));
        }
        const server = await entry.started;
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ url: server.url, port: server.port, logFile: entry.logFile }));
      } catch (error) {
        response.writeHead(500, { "Content-Type": "text/plain" });
        response.end(error instanceof Error ? error.message : String(error));
      }
    })();
  });
  await new Promise<void>((ready) => pool.listen(0, "127.0.0.1", ready));
  const address = pool.address();
  if (address === null || typeof address === "string") throw new Error("the server pool has no port");
  project.provide("devServerPool", `http://127.0.0.1:${address.port}`);

  return async () => {
    pool.close();
    mkdirSync(LOG_DIR, { recursive: true });
    await Promise.all(
      [...servers].map(async ([key, entry]) => {
        const server = await entry.started.catch(() => undefined);
        if (!server) return;
        writeFileSync(entry.logFile, `settings: ${key}\n${server.logs()}`);
        await server.stop();
      }),
    );
  };
}
