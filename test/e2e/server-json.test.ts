/**
 * server.json, what the MCP Registry publishes (`mcp-publisher publish`, docs/deploying.md), checked
 * offline against the registry's own schema (test/fixtures/mcp-registry: its 2025-12-11 schema,
 * MIT-licensed, vendored with its constraints and without its prose). A plain Node test beside the
 * e2e suite for its Node types.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, it } from "vitest";
import { SERVER_INFO } from "../../src/protocol/server-info";

const ROOT = resolve(import.meta.dirname, "../..");
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
const schema = readJson("test/fixtures/mcp-registry/server.schema.json") as Schema & { $id: string };
const server = readJson("server.json") as Record<string, unknown> & {
  $schema: string;
  version: string;
  remotes: { type: string; url: string; variables?: Record<string, unknown> }[];
};
const validator = new Validator(schema, "7", false);
const errors = (document: unknown) =>
  validator.validate(document).errors.map((error) => `${error.instanceLocation}: ${error.error}`);

describe("server.json for the MCP Registry", () => {
  it("is valid against the registry's schema", ({ expect }) => {
    expect(errors(server)).toEqual([]);
  });

  it("names the schema it was checked against", ({ expect }) => {
    expect(server.$schema).toBe(schema.$id);
  });

  it("offers the deployer's own host as a streamable-http remote at /mcp", ({ expect }) => {
    const [remote] = server.remotes;
    expect(remote?.type).toBe("streamable-http");
    expect(remote?.url).toBe("https://{host}/mcp");
    // Every {variable} in the URL template is declared, as the registry requires.
    for (const [, name] of remote?.url.matchAll(/\{([^}]+)\}/g) ?? [])
      expect(Object.keys(remote?.variables ?? {})).toContain(name);
  });

  it("carries package.json's version", ({ expect }) => {
    expect(server.version).toBe((readJson("package.json") as { version: string }).version);
  });

  it("is the version the server names itself by (initialize, 2026 serverInfo)", ({ expect }) => {
    expect(SERVER_INFO.version).toBe((readJson("package.json") as { version: string }).version);
  });

  it("would be refused with a description over the registry's 100 characters (the check checks)", ({ expect }) => {
    expect(errors({ ...server, description: "x".repeat(101) }).length).toBeGreaterThan(0);
    expect(errors({ ...server, name: "no-slash" }).length).toBeGreaterThan(0);
  });
});
