// What the adopter lanes keep of a caller (src/adopt/caller.ts): the adopter's caller() answer, or
// ctx.props, checked at the edge before it is sealed with a task.
import { describe, expect, it } from "vitest";
import { callerContext, MAX_CALLER_BYTES } from "../../src/adopt/caller";

const request = new Request("https://adopter.example/mcp");
// Only props is read: the rest of workerd's context (exports, tracing, ...) is stood in for by the cast.
const ctxWith = (props: unknown): ExecutionContext => ({
  waitUntil: () => undefined,
  passThroughOnException: () => undefined,
  props,
  ...({} as Omit<ExecutionContext, "waitUntil" | "passThroughOnException" | "props">),
});

describe("callerContext", () => {
  it("keeps ctx.props by default, and nothing for absent or empty props", async () => {
    expect(await callerContext(undefined, request, {}, ctxWith({ apiKey: "k" }))).toEqual({
      ok: true,
      caller: { apiKey: "k" },
    });
    expect(await callerContext(undefined, request, {}, ctxWith(undefined))).toEqual({ ok: true });
    expect(await callerContext(undefined, request, {}, ctxWith({}))).toEqual({ ok: true });
  });

  it("refuses an adopter's answer that is not a JSON object, or too large, naming the option", async () => {
    const number = await callerContext(() => 42, request, {}, ctxWith(undefined));
    expect(number).toMatchObject({ ok: false, refusal: { status: 403, error: "caller_invalid" } });
    const large = await callerContext(() => ({ blob: "x".repeat(MAX_CALLER_BYTES) }), request, {}, ctxWith(undefined));
    expect(large).toMatchObject({ ok: false, refusal: { status: 403, error: "caller_invalid" } });
  });

  it("answers a caller() that throws as 401, revealing nothing of the cause", async () => {
    const thrown = await callerContext(
      () => {
        throw new Error("secret backend detail");
      },
      request,
      {},
      ctxWith(undefined),
    );
    expect(thrown).toMatchObject({ ok: false, refusal: { status: 401 } });
    expect(JSON.stringify(thrown)).not.toContain("secret backend detail");
  });
});
