/**
 * What the card reads from its host over postMessage (MCP Apps 2026-01-26, the view's side), parsed
 * at the edge with zod/mini: JSON-RPC 2.0 envelopes, the `ui/initialize` result and the
 * notifications' params the card acts on. Objects are loose: hosts may send more than this.
 */
import * as z from "zod/mini";

/** The MCP Apps version this card speaks (ext-apps' LATEST_PROTOCOL_VERSION). */
export const PROTOCOL_VERSION = "2026-01-26";

const RequestIdSchema = z.union([z.string(), z.number()]);

/** A request or notification from the host (a request has an id). */
export const IncomingCallSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.optional(RequestIdSchema),
  method: z.string(),
  params: z.optional(z.record(z.string(), z.unknown())),
});

/** The host's answer to one of the card's requests. */
export const IncomingResponseSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: RequestIdSchema,
  result: z.optional(z.record(z.string(), z.unknown())),
  error: z.optional(z.looseObject({ code: z.number(), message: z.string() })),
});

/** The parts of the host context (`McpUiHostContext`) the card uses. */
export const HostContextSchema = z.looseObject({
  theme: z.optional(z.enum(["light", "dark"])),
  styles: z.optional(
    z.looseObject({
      // The host's CSS variables; ext-apps sends every key, undefined for those it does not set.
      variables: z.optional(z.record(z.string(), z.optional(z.string()))),
      css: z.optional(z.looseObject({ fonts: z.optional(z.string()) })),
    }),
  ),
  toolInfo: z.optional(z.looseObject({ tool: z.looseObject({ name: z.string() }) })),
});
export type HostContext = z.infer<typeof HostContextSchema>;

export const InitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  hostCapabilities: z.looseObject({ serverTools: z.optional(z.looseObject({})) }),
  hostContext: z._default(HostContextSchema, {}),
});
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

export const ToolInputParamsSchema = z.looseObject({ arguments: z.optional(z.record(z.string(), z.unknown())) });
export const ToolCancelledParamsSchema = z.looseObject({ reason: z.optional(z.string()) });
