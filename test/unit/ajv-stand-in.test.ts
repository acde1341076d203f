// The bundle's ajv stand-in (src/shims/ajv.ts) validates as the SDK's AjvJsonSchemaValidator asks of
// ajv, so an SDK v1 McpServer built without a validator works in workerd (issue 52).
import type { Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import Ajv from "../../src/shims/ajv";
import addFormats from "../../src/shims/ajv-formats";

const answer: Schema = {
  type: "object",
  properties: { more: { type: "boolean" }, email: { type: "string", format: "email" } },
  required: ["more"],
};

describe("the ajv stand-in", () => {
  it("compiles a schema whose function accepts a valid input and keeps no errors", () => {
    const validate = addFormats(new Ajv()).compile(answer);
    expect(validate({ more: true })).toBe(true);
    expect(validate.errors).toBeNull();
  });

  it("refuses an invalid input with errors errorsText turns into words", () => {
    const ajv = new Ajv();
    const validate = ajv.compile(answer);
    expect(validate({ more: "yes" })).toBe(false);
    expect(ajv.errorsText(validate.errors)).toMatch(/more|boolean/);
    expect(validate({ more: true, email: "not an email" })).toBe(false);
  });

  it("keeps no schemas by $id, so the SDK compiles each one", () => {
    expect(new Ajv().getSchema("urn:x")).toBeUndefined();
  });
});
