/**
 * A webhook subscription's id, derived (events/subscribe is an idempotent upsert): the same
 * principal, callback URL, event name and arguments always name the same subscription, and
 * nothing else does. Never taken as input.
 */
import { isRecord, type JsonObject } from "../json";

/** JSON with object keys sorted at every level: equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

export async function subscriptionId(principal: string, url: string, name: string, args: JsonObject): Promise<string> {
  const text = JSON.stringify([principal, url, name, canonicalJson(args)]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sub_${[...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
