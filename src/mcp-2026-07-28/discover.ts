/**
 * `server/discover` (server/discover.mdx): the versions this endpoint serves (2026-07-28, and the
 * 2025 ones through `initialize`), the capabilities with the Tasks extension, and instructions for the model (protocol/instructions.ts).
 * The same for every caller, so it may be cached publicly.
 */
import type { JsonObject } from "../json";
import { MODEL_INSTRUCTIONS } from "../protocol/instructions";
import { SHARED_CAPABILITIES } from "../protocol/server-info";
import { servedExtensions } from "./extension-methods";
import { SUPPORTED_VERSIONS, TASKS_EXTENSION } from "./protocol";
import { cacheable, STATIC_TTL_MS } from "./results";

/** The Tasks extension always; an extension the Worker serves (the Events one) when it does. */
function capabilities(): JsonObject {
  const extensions = servedExtensions();
  return {
    ...SHARED_CAPABILITIES,
    logging: {},
    extensions: Object.fromEntries([
      [TASKS_EXTENSION, {}],
      ...extensions.map((extension) => [extension.id, extension.settings]),
    ]),
    ...Object.assign({}, ...extensions.map((extension) => extension.topLevel ?? {})),
  };
}

export function discover(): JsonObject {
  return cacheable(
    {
      supportedVersions: [...SUPPORTED_VERSIONS],
      capabilities: capabilities(),
      instructions: MODEL_INSTRUCTIONS,
    },
    STATIC_TTL_MS,
    "public",
  );
}
