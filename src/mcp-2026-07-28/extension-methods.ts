/**
 * Methods an extension adds to the 2026-07-28 endpoint when the Worker serves it (the Events
 * extension: package/serve-events.ts), so a Worker that does not serve it bundles none of its code
 * and `server/discover` declares only what is served. Added at module load, before any request.
 */
import type { JsonObject } from "../json";
import type { Context20260728 } from "./context";

export interface ExtensionMethod {
  run(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject>;
}

export interface Extension {
  /** Its id, declared under `capabilities.extensions` in `server/discover`. */
  id: string;
  settings: JsonObject;
  /** Capabilities declared beside it, at the top level (clients that look there). */
  topLevel?: JsonObject;
  methods: ReadonlyMap<string, ExtensionMethod>;
}

const served = new Map<string, Extension>();

export function serveExtension(extension: Extension): void {
  served.set(extension.id, extension);
}

export const servedExtensions = (): readonly Extension[] => [...served.values()];

export function extensionMethod(name: string): ExtensionMethod | undefined {
  for (const extension of served.values()) {
    const method = extension.methods.get(name);
    if (method) return method;
  }
  return undefined;
}
