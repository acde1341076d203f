// Unexpected errors in either era (src/protocol/unexpected-errors.ts), and in 2025 through the real
// per-request SDK Server and our transport: logged with a reference, answered in generic words with
// that reference; our protocol errors and the SDK's params checks pass as before.
import { afterEach, describe, it, vi } from "vitest";
import { ListToolsRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { RequestTransport } from "../../src/mcp-2025-11-25/request-transport";
import { SdkServer } from "../../src/mcp-2025-11-25/sdk-server";
import { ErrorCode, ProtocolError } from "../../src/protocol/errors";
import { answerableError, unexpectedError } from "../../src/protocol/unexpected-errors";

const SECRET = "connect ECONNREFUSED 10.0.0.7:5432";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("unexpectedError", () => {
  it("logs the error with a reference and answers -32603 naming only that reference", ({ expect }) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = new Error(SECRET);
    const answer = unexpectedError(error, "2025-11-25 tools/call", "ref-1");
    expect(answer).toBeInstanceOf(ProtocolError);
    expect(answer.code).toBe(ErrorCode.InternalError);
    expect(answer.message).toContain("ref-1");
    expect(answer.message).not.toContain("ECONNREFUSED");
    expect(log).toHaveBeenCalledWith(expect.stringContaining("ref-1"), error);
  });

  it("passes our protocol errors as thrown, unlogged", ({ expect }) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const refusal = new ProtocolError(ErrorCode.InvalidParams, "Unknown tool.");
    expect(answerableError(refusal, "x")).toBe(refusal);
    expect(log).not.toHaveBeenCalled();
  });

  it("gives each error its own reference", ({ expect }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(answerableError(new Error("a"), "x").message).not.toBe(answerableError(new Error("a"), "x").message);
  });
});

describe("a 2025 handler that throws", () => {
  async function ask(handler: () => Promise<never>, message: JSONRPCMessage & { id: number }): Promise<JSONRPCMessage> {
    const server = new SdkServer({ name: "t", version: "1" }, { capabilities: { tools: {} }, instructions: "" });
    server.setRequestHandler(ListToolsRequestSchema, handler);
    const transport = new RequestTransport(undefined, { primes: false });
    await server.connect(transport);
    return transport.dispatch(message);
  }
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } as const;

  it("answers -32603 with a logged reference, not its own message", async ({ expect }) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const reply = await ask(async () => {
      throw new Error(SECRET);
    }, list);
    expect(reply).toMatchObject({
      id: 1,
      error: {
        code: ErrorCode.InternalError,
        message: expect.stringMatching(/^Internal error \(reference [0-9a-f-]{36}\)/),
      },
    });
    const reference = /reference ([0-9a-f-]{36})/.exec(JSON.stringify(reply))?.[1] ?? "none";
    expect(JSON.stringify(reply)).not.toContain("ECONNREFUSED");
    expect(log).toHaveBeenCalledWith(
      expect.stringContaining(`2025-11-25 tools/list failed unexpectedly (reference ${reference})`),
      expect.objectContaining({ message: SECRET }),
    );
  });

  it("answers an error with a numeric code of its own (a DOMException) the same generic way", async ({ expect }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const reply = await ask(async () => {
      throw new DOMException("The operation was aborted.", "AbortError");
    }, list);
    expect(reply).toMatchObject({
      error: { code: ErrorCode.InternalError, message: expect.stringContaining("reference") },
    });
  });

  it("passes a protocol error's own code and words", async ({ expect }) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const reply = await ask(async () => {
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid cursor.");
    }, list);
    expect(reply).toMatchObject({ error: { code: ErrorCode.InvalidParams, message: "Invalid cursor." } });
    expect(log).not.toHaveBeenCalled();
  });
});
