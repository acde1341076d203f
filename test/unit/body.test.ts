import { describe, it } from "vitest";
import { readBodyWithLimit } from "../../src/http/body";

const MAX = 64;
const bytes = (text: string) => new TextEncoder().encode(text);
const withLength = (body: Uint8Array, length = body.byteLength) =>
  new Request("http://localhost/mcp", { method: "POST", body, headers: { "Content-Length": String(length) } });
const chunked = (...chunks: Uint8Array[]) =>
  new Request("http://localhost/mcp", {
    method: "POST",
    body: new ReadableStream<Uint8Array>({
      start: (c) => {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    }),
    duplex: "half",
  } as RequestInit);
const notUtf8 = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);

describe("readBodyWithLimit", () => {
  it("reads a body of declared length in one go and a chunked one chunk by chunk, with the same answers", async ({
    expect,
  }) => {
    expect(await readBodyWithLimit(withLength(bytes('{"a":"é"}')), MAX)).toEqual({ ok: true, text: '{"a":"é"}' });
    expect(await readBodyWithLimit(chunked(bytes('{"a":'), bytes('"é"}')), MAX)).toEqual({
      ok: true,
      text: '{"a":"é"}',
    });
    expect(await readBodyWithLimit(withLength(notUtf8), MAX)).toMatchObject({ ok: false, status: 400 });
    expect(await readBodyWithLimit(chunked(notUtf8), MAX)).toMatchObject({ ok: false, status: 400 });
  });

  it("refuses a body over the cap: by its declared length before reading, or while reading a chunked one", async ({
    expect,
  }) => {
    const big = bytes("x".repeat(MAX + 1));
    expect(await readBodyWithLimit(withLength(big), MAX)).toMatchObject({ ok: false, status: 413 });
    expect(await readBodyWithLimit(chunked(big.subarray(0, 40), big.subarray(40)), MAX)).toMatchObject({
      ok: false,
      status: 413,
    });
  });

  it("reads to its end what keeps arriving of a refused chunked body, so the upload is over before the 413", async ({
    expect,
  }) => {
    let pulled = 0;
    const flowing = new ReadableStream<Uint8Array>({
      pull: (c) => {
        pulled++;
        if (pulled > 100) c.close();
        else c.enqueue(bytes("x".repeat(MAX)));
      },
    });
    const init = { method: "POST", body: flowing, duplex: "half" };
    expect(await readBodyWithLimit(new Request("http://localhost/mcp", init), MAX)).toMatchObject({ status: 413 });
    expect(pulled).toBe(101);
  });

  it("answers a refused upload that is held open at once, not at its end (which never comes)", async ({ expect }) => {
    const held = new ReadableStream<Uint8Array>({
      start: (c) => {
        c.enqueue(bytes("x".repeat(MAX + 1)));
        // Never closed, never more: a slow or hostile client.
      },
    });
    const init = { method: "POST", body: held, duplex: "half" };
    const started = Date.now();
    expect(await readBodyWithLimit(new Request("http://localhost/mcp", init), MAX)).toMatchObject({ status: 413 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
