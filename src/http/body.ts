/** Reads a request body with a byte cap, so an oversized body is refused without buffering it whole. */

export type BodyResult = { ok: true; text: string } | { ok: false; status: 413 | 400; message: string };

export async function readBodyWithLimit(request: Request, maxBytes: number): Promise<BodyResult> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > maxBytes) {
    return { ok: false, status: 413, message: `Request body is larger than ${maxBytes} bytes.` };
  }
  if (!request.body) return { ok: true, text: "" };
  if (declared !== null && /^\d+$/.test(declared)) {
    // The length is declared and within the cap, and HTTP framing holds the body to it: read it in
    // one native call instead of chunk by chunk (the common case; a chunked body takes the loop).
    let bytes: ArrayBuffer;
    try {
      bytes = await request.arrayBuffer();
    } catch {
      return { ok: false, status: 400, message: "The request body could not be read." };
    }
    if (bytes.byteLength > maxBytes)
      return { ok: false, status: 413, message: `Request body is larger than ${maxBytes} bytes.` };
    return decodeUtf8(new Uint8Array(bytes));
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await discardRest(reader);
        return { ok: false, status: 413, message: `Request body is larger than ${maxBytes} bytes.` };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, status: 400, message: "The request body could not be read." };
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decodeUtf8(bytes);
}

/** How much of a refused body is read and dropped, and how long a pause in it ends the reading. */
const DISCARD_BYTES = 32 * 1024 * 1024;
const DISCARD_IDLE_MS = 250;

/**
 * Reads and drops what keeps arriving of a refused body, then lets it go. A cancel made wrangler
 * dev's proxy answer 500 ("Network connection lost") instead of the 413; so did a release while a
 * fast upload was still arriving (a 5 MB chunked body sent at once, test/e2e/adopt-fuzz.test.ts):
 * the proxy drains only a body nobody touched. Reading stops at the upload's end, after
 * DISCARD_BYTES, or once nothing arrived for DISCARD_IDLE_MS, so an upload held open (a slow
 * client, test/e2e/support/streamed-upload.ts) still gets its 413 at once, not at its end.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  try {
    for (let dropped = 0; dropped <= DISCARD_BYTES; ) {
      const idle = new Promise<"idle">((resolve) => {
        timer = setTimeout(() => resolve("idle"), DISCARD_IDLE_MS);
      });
      const next = await Promise.race([reader.read(), idle]);
      clearTimeout(timer);
      if (next === "idle" || next.done) break;
      dropped += next.value.byteLength;
    }
  } catch {
    // The client went away mid-upload: nothing left to answer it with.
  } finally {
    clearTimeout(timer);
    try {
      reader.releaseLock();
    } catch {
      // workerd will not release a reader with a read pending (the upload paused): it stays locked,
      // and the runtime drops the rest with the request, as a released one's.
    }
  }
}

function decodeUtf8(bytes: Uint8Array): BodyResult {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, status: 400, message: "The request body is not valid UTF-8." };
  }
}
