/**
 * Every 2026-07-28 result carries `resultType` and names the server in `_meta` (basic/index.mdx,
 * "Per-response protocol fields"); lists and reads also carry caching hints (utilities/caching.mdx).
 */
import { isRecord } from "../json";
import { SERVER_INFO } from "../protocol/server-info";
import { META } from "./protocol";

type Result = Record<string, unknown>;

/** How long static listings (tools, templates, discovery) may be cached: a deploy shows within minutes. */
export const STATIC_TTL_MS = 300_000;

const metaOf = (result: Result): Result => (isRecord(result["_meta"]) ? { ...result["_meta"] } : {});

/** `result` as the wire carries it: `resultType` (default "complete") and `_meta` serverInfo added. */
export function finalize(result: Result, resultType = "complete"): Result {
  return {
    ...result,
    resultType: typeof result["resultType"] === "string" ? result["resultType"] : resultType,
    _meta: { ...metaOf(result), [META.serverInfo]: SERVER_INFO },
  };
}

export function cacheable(result: Result, ttlMs: number, cacheScope: "public" | "private"): Result {
  return { ...result, ttlMs: Math.max(0, Math.floor(ttlMs)), cacheScope };
}
