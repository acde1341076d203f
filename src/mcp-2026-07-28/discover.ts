/**
 * `server/discover` (server/discover.mdx): the versions this endpoint serves (2026-07-28, and the
 * 2025 ones through `initialize`), the capabilities with the Tasks extension, and instructions for the model (protocol/instructions.ts).
 * The same for every caller, so it may be cached publicly.
 */
import type { JsonObject } from "../json";
import { MODEL_INSTRUCTIONS } from "../protocol/instructions";
import { SHARED_CAPABILITIES } from "../protocol/server-info";
import { EVENTS_EXTENSION, SUPPORTED_VERSIONS, TASKS_EXTENSION } from "./protocol";
import { cacheable, STATIC_TTL_MS } from "./results";

const CAPABILITIES_2026_07_28 = {
  ...SHARED_CAPABILITIES,
  logging: {},
  // Events under both keys: the extension's, and the top-level one the AI SDK and ChatGPT look for.
  extensions: { [TASKS_EXTENSION]: {}, [EVENTS_EXTENSION]: { listChanged: false } },
  events: {},
};

export function discover(): JsonObject {
  return cacheable(
    {
      supportedVersions: [...SUPPORTED_VERSIONS],
      capabilities: CAPABILITIES_2026_07_28,
      instructions: MODEL_INSTRUCTIONS,
    },
    STATIC_TTL_MS,
    "public",
  );
}
