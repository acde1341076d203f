/**
 * The per-request `_meta` envelope of 2026-07-28 (basic/index.mdx, "Per-request protocol fields"):
 * the client's capabilities, identity and log level for this request alone. Nothing is remembered
 * between requests; a malformed envelope is `-32602` on HTTP 400.
 */
import * as z from "zod";
import { hasTaskClientCapabilityV2 } from "@modelcontextprotocol/ext-tasks/core/v2";
import { invalidEnvelope } from "../protocol/errors";
import { META } from "./protocol";

export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const EnvelopeSchema = z
  .object({
    [META.protocolVersion]: z.string().max(64),
    [META.clientCapabilities]: z.record(z.string(), z.unknown()),
    [META.clientInfo]: z
      .object({ name: z.string().max(256), version: z.string().max(256) })
      .loose()
      .optional(),
    [META.logLevel]: z.enum(LOG_LEVELS).optional(),
  })
  .loose();

export interface RequestEnvelope {
  version: string;
  capabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** Set only when the request asked for `notifications/message` at this level or above. */
  logLevel?: LogLevel;
  /** The client declared the Tasks extension on this request. */
  tasks: boolean;
}

/** Parses the envelope of `params` (whose claim the classifier already found) or throws `-32602` naming the field. */
export function parseEnvelope(params: Record<string, unknown>): RequestEnvelope {
  const parsed = EnvelopeSchema.safeParse(params["_meta"]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] !== undefined ? String(issue.path[0]) : "_meta";
    const missing = issue?.code === "invalid_type" && issue.input === undefined;
    throw invalidEnvelope(
      missing ? `"${field}" is required on every 2026-07-28 request.` : `"${field}": ${issue?.message ?? "invalid"}.`,
    );
  }
  const meta = parsed.data;
  const clientInfo = meta[META.clientInfo];
  const logLevel = meta[META.logLevel];
  return {
    version: meta[META.protocolVersion],
    capabilities: meta[META.clientCapabilities],
    ...(clientInfo !== undefined && { clientInfo: { name: clientInfo.name, version: clientInfo.version } }),
    ...(logLevel !== undefined && { logLevel }),
    tasks: hasTaskClientCapabilityV2(params),
  };
}

/** Whether a message at `level` reaches a client that asked for `wanted` (RFC 5424 order). */
export function logLevelAllows(wanted: LogLevel | undefined, level: string): boolean {
  if (wanted === undefined) return false;
  const at = LOG_LEVELS.findIndex((candidate) => candidate === level);
  return at >= 0 && at >= LOG_LEVELS.indexOf(wanted);
}
