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
        // Released, not cancelled: the runtime drops the unread rest with the answer, where a
        // cancel made wrangler dev's proxy answer 500 ("Network connection lost") instead of the 413.
        reader.releaseLock();
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

function decodeUtf8(bytes: Uint8Array): BodyResult {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, status: 400, message: "The request body is not valid UTF-8." };
  }
}
