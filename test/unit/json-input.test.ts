// The shared JSON limits (src/http/json-input.ts): depth is measured on the text, in one pass, before
// anything is parsed; brackets inside strings do not count; any escape spelling of a key decodes.
import { describe, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonInput } from "../../src/http/json-input";

const nested = (depth: number, open = "[", close = "]"): string => open.repeat(depth) + close.repeat(depth);

describe("parseJsonInput", () => {
  it("accepts nesting up to the limit and refuses one level more, arrays and objects alike", ({ expect }) => {
    expect(parseJsonInput(nested(MAX_JSON_DEPTH))).toMatchObject({ ok: true });
    expect(parseJsonInput(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ ok: false, reason: "depth" });
    const objects = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + "1" + "}".repeat(MAX_JSON_DEPTH + 1);
    expect(parseJsonInput(objects)).toMatchObject({ ok: false, reason: "depth" });
  });

  it("refuses 8,000-deep input without recursing, naming the limit", ({ expect }) => {
    const result = parseJsonInput(`{"content":{"x":${nested(8000)}}}`);
    expect(result).toMatchObject({ ok: false, reason: "depth" });
    expect(result.ok ? "" : result.message).toContain(String(MAX_JSON_DEPTH));
  });

  it("does not count brackets inside strings, escaped quotes included", ({ expect }) => {
    const text = JSON.stringify({ s: "[".repeat(500) + '\\"' + "{".repeat(500) });
    expect(nestsDeeperThan(text, 2)).toBe(false);
    expect(parseJsonInput(text)).toMatchObject({ ok: true });
  });

  it("ends a string at a quote after an even run of backslashes, and only there", ({ expect }) => {
    const text = JSON.stringify({ s: "x\\", q: 'say \\"[[[[', t: [[[]]] });
    expect(nestsDeeperThan(text, 3)).toBe(true);
    expect(nestsDeeperThan(text, 4)).toBe(false);
  });

  it("decodes escaped spellings of a key to the key", ({ expect }) => {
    const result = parseJsonInput('{"io.modelcontextprotocol\\/protocolVers\\u0069on":"2026-07-28"}');
    expect(result.ok && result.value).toEqual({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
  });

  it("reports text that is not JSON as a parse error", ({ expect }) => {
    expect(parseJsonInput("{nope")).toMatchObject({ ok: false, reason: "parse" });
  });
});
