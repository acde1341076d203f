/**
 * A 2026-07-28 request that route.ts gave the engine: read and classified as the template's era
 * router does (src/eras), then answered by the template's 2026-07-28 adapter, with the durable tools
 * as its registry. No second protocol implementation: this is the seam, not a copy.
 */
import { classifyPost } from "../eras/classify";
import { readBodyWithLimit } from "../http/body";
import { parseJsonInput } from "../http/json-input";
import type { McpRequest } from "../http/mcp-endpoint";
import { hasJsonContentType } from "../http/media-types";
import { mcp20260728 } from "../mcp-2026-07-28";
import { HEADER, VERSION_2026_07_28 } from "../mcp-2026-07-28/protocol";
import { errorResponse } from "../protocol/errors";
import type { RequestOrigin } from "../protocol/request-context";

const ONE_ERA = { isPerRequest: (version: string | null) => version === VERSION_2026_07_28, newest: mcp20260728 };

export async function serveEngineMcp(request: Request, origin: RequestOrigin): Promise<Response> {
  const input: McpRequest = { ...origin, request };
  if (!hasJsonContentType(request)) return mcp20260728.post(input);
  const body = await readBodyWithLimit(request, origin.settings.maxBodyBytes);
  if (!body.ok) return mcp20260728.post({ ...input, body });
  const json = parseJsonInput(body.text);
  if (!json.ok) return mcp20260728.post({ ...input, body });
  const route = classifyPost(request.headers.get(HEADER.protocolVersion), json.value, ONE_ERA);
  if (route.kind === "reject") return errorResponse(route.id, route.error);
  // A body that names no version under a 2026-07-28 header is refused by the adapter, which says why.
  if (route.kind === "session") return mcp20260728.post({ ...input, body, json: { value: json.value } });
  return mcp20260728.post({ ...input, body, json: { value: json.value }, message: route.message });
}
