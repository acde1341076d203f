// Choosing the era of a POST to /mcp from its body (the header only cross-checks), and decoding
// the Mcp-Name header value, without a runtime.
import { describe, it } from "vitest";
import { classifyPost as classifyWith } from "../../src/eras/classify";
import { eraTable, type EraAdapter } from "../../src/eras";
import { decodeHeaderValue } from "../../src/mcp-2026-07-28/headers";

const claim = (version: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/list",
  params: {
    _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} },
  },
  ...extra,
});
const row = (revision: string, versions: string[], framing: EraAdapter["framing"]): EraAdapter => {
  const never = () => Promise.reject(new Error(`${revision} should not be called here`));
  return { revision, versions, framing, post: never, get: never, delete: never };
};
const TABLE = eraTable([
  row("2026-07-28", ["2026-07-28"], "per-request"),
  row("2025-11-25", ["2025-11-25", "2025-06-18"], "session"),
]);
const classifyPost = (header: string | null, body: unknown) => classifyWith(header, body, TABLE);
const codeOf = (route: ReturnType<typeof classifyPost>) => (route.kind === "reject" ? route.error.code : undefined);

describe("classifyPost", () => {
  it("routes a body claiming 2026-07-28 to the 2026-07-28 row, with or without the header", ({ expect }) => {
    expect(classifyPost("2026-07-28", claim("2026-07-28"))).toMatchObject({
      kind: "claimed",
      message: { id: 1, method: "tools/list", claimedVersion: "2026-07-28" },
    });
    expect(classifyPost(null, claim("2026-07-28")).kind).toBe("claimed");
  });

  it("leaves initialize, claim-less requests, batches and posted responses to the 2025 adapter", ({ expect }) => {
    expect(classifyPost("2025-11-25", { jsonrpc: "2.0", id: 1, method: "tools/list" }).kind).toBe("session");
    expect(
      classifyPost(null, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } })
        .kind,
    ).toBe("session");
    expect(classifyPost(null, [{ jsonrpc: "2.0", id: 1, method: "ping" }]).kind).toBe("session");
    expect(classifyPost(null, { jsonrpc: "2.0", id: 1, result: {} }).kind).toBe("session");
    expect(classifyPost("1999-01-01", { jsonrpc: "2.0", id: 1, method: "tools/list" }).kind).toBe("session");
  });

  it("sends a 2025 version claimed in _meta to the row that serves it", ({ expect }) => {
    expect(classifyPost("2025-11-25", claim("2025-11-25"))).toMatchObject({ kind: "claimed", version: "2025-11-25" });
    expect(TABLE.forVersion("2025-11-25")?.revision).toBe("2025-11-25");
  });

  it("keeps an unknown claimed version, for the newest per-request row to answer -32022", ({ expect }) => {
    expect(classifyPost("2099-01-01", claim("2099-01-01"))).toMatchObject({
      kind: "claimed",
      message: { claimedVersion: "2099-01-01" },
    });
  });

  it("refuses a header that disagrees with the claim, and initialize under the 2026 header, with -32020", ({
    expect,
  }) => {
    expect(codeOf(classifyPost("2025-11-25", claim("2026-07-28")))).toBe(-32020);
    expect(codeOf(classifyPost("2026-07-28", claim("2025-11-25")))).toBe(-32020);
    expect(codeOf(classifyPost("2026-07-28", { jsonrpc: "2.0", id: 1, method: "initialize", params: {} }))).toBe(
      -32020,
    );
  });

  it("refuses a 2026 request without the envelope, or with a non-string version, with -32602 on HTTP 400", ({
    expect,
  }) => {
    const missing = classifyPost("2026-07-28", { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(missing).toMatchObject({ kind: "reject", id: 1, error: { code: -32602, httpStatus: 400 } });
    expect(codeOf(classifyPost(null, claim(20260728)))).toBe(-32602);
  });

  it("serves a notification under the 2026 header without a claim", ({ expect }) => {
    expect(
      classifyPost("2026-07-28", { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
    ).toMatchObject({ kind: "claimed", message: { method: "notifications/cancelled" } });
  });

  it("refuses batches and malformed JSON-RPC that claim 2026 with HTTP 400", ({ expect }) => {
    expect(classifyPost(null, [claim("2026-07-28")])).toMatchObject({ kind: "reject", error: { httpStatus: 400 } });
    expect(classifyPost(null, claim("2026-07-28", { jsonrpc: "1.0" }))).toMatchObject({
      kind: "reject",
      error: { httpStatus: 400 },
    });
    expect(classifyPost(null, claim("2026-07-28", { id: null }))).toMatchObject({
      kind: "reject",
      error: { httpStatus: 400 },
    });
    expect(classifyPost("2026-07-28", "text")).toMatchObject({ kind: "reject", error: { httpStatus: 400 } });
  });
});

describe("decodeHeaderValue", () => {
  it("passes plain visible ASCII through", ({ expect }) => {
    expect(decodeHeaderValue("get_weather")).toBe("get_weather");
    expect(decodeHeaderValue("task://0123")).toBe("task://0123");
  });

  it("decodes the Base64 sentinel as UTF-8", ({ expect }) => {
    expect(decodeHeaderValue("=?base64?SGVsbG8sIOS4lueVjA==?=")).toBe("Hello, 世界");
    expect(decodeHeaderValue("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=")).toBe("=?base64?literal?=");
  });

  it("refuses invalid Base64, invalid UTF-8 and characters a plain value cannot hold", ({ expect }) => {
    expect(decodeHeaderValue("=?base64?not base64?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined();
    expect(decodeHeaderValue("caf\u00e9")).toBeUndefined();
  });
});
