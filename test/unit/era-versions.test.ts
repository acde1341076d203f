// src/mcp-2026-07-28/protocol.ts writes out the versions the 2025 adapter (the SDK v1 Server)
// negotiates, so an adopter's bundle does not load the SDK v1 for a list: it must be the SDK's list.
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { VERSIONS_THROUGH_INITIALIZE } from "../../src/mcp-2026-07-28/protocol";

describe("the versions served through initialize", () => {
  it("are the SDK v1's SUPPORTED_PROTOCOL_VERSIONS, in its order", () => {
    expect(VERSIONS_THROUGH_INITIALIZE).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
  });
});
