/**
 * The strict fetch of client ID metadata documents, a fix we carry until
 * `@cloudflare/workers-oauth-provider` has one: 1.2.3 fetches a document with fetch's default
 * redirect mode and takes any 2xx of any media type, and it offers no option or fetch hook. Its
 * document fetch is the only request sent with its User-Agent, so `guardDocumentFetches()` wraps the
 * global fetch once: such a request is sent with `redirect: "manual"`, and only a 200 with a JSON media
 * type, read within the library's own size bound, reaches the library. Every refusal is in words of
 * ours (docs/security.md, oauth-document-refusal.ts); the runtime's own error is kept for the log.
 */

/** The start of the User-Agent the provider sends on its own outbound fetches (documents, EMA keys). */
const PROVIDER_USER_AGENT = "workers-oauth-provider/";
/** The provider's own bound on a document (CIMD_MAX_SIZE_BYTES), so it sees nothing it would refuse for size. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
const GUARDED = Symbol.for("mcp-task-worker.document-fetch-guard");

/** What a refusal says, after "The client's metadata document (<url>) could not be used: ". */
export const DOCUMENT_REFUSALS = {
  redirect: "it answered with a redirect, and a client metadata document must be served at its client_id itself",
  status: "it was not answered with 200 OK",
  mediaType: "it was not served as JSON (application/json or a +json media type)",
  tooLarge: `it is larger than ${DOCUMENT_MAX_BYTES} bytes`,
  unreachable: "it could not be fetched",
} as const;
const OUR_WORDS = new Set<string>(Object.values(DOCUMENT_REFUSALS));

/** Whether a CimdFetchError's detail is one of the refusals above (else it is the provider's check of the document). */
export const isDocumentRefusal = (detail: string): boolean => OUR_WORDS.has(detail);

/** `application/json`, or any `type/subtype+json`, with or without parameters. */
export function isJsonMediaType(contentType: string | null): boolean {
  const essence = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return essence === "application/json" || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence);
}

type Fetch = typeof fetch;

async function readBounded(response: Response, signal: AbortSignal | null): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (signal?.aborted) throw new Error(DOCUMENT_REFUSALS.unreachable);
    const { done, value } = await reader.read().catch(() => {
      throw new Error(DOCUMENT_REFUSALS.unreachable);
    });
    if (done) break;
    size += value.byteLength;
    if (size > DOCUMENT_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(DOCUMENT_REFUSALS.tooLarge);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** One document fetch: no redirect followed, 200 and JSON only, the body read here within the bound. */
export async function fetchDocumentStrictly(inner: Fetch, request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await inner(new Request(request, { redirect: "manual" }));
  } catch (error) {
    const said = error instanceof Error ? error.message : error;
    console.warn(`client metadata document fetch failed for ${request.url}:`, said);
    throw new Error(DOCUMENT_REFUSALS.unreachable);
  }
  const refusal =
    response.status >= 300 && response.status < 400
      ? DOCUMENT_REFUSALS.redirect
      : response.status !== 200
        ? DOCUMENT_REFUSALS.status
        : !isJsonMediaType(response.headers.get("Content-Type"))
          ? DOCUMENT_REFUSALS.mediaType
          : undefined;
  if (refusal !== undefined) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(refusal);
  }
  const bytes = await readBounded(response, request.signal);
  // Only what the provider reads: its media type, and what decides whether it caches the document.
  const headers = new Headers();
  for (const name of ["Content-Type", "Cache-Control", "ETag", "Last-Modified"]) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(bytes, { status: 200, headers });
}

/** The headers a fetch is sent with: its init's, or else those of the Request it was given. */
const headersOf = (input: RequestInfo | URL, init?: RequestInit): Headers =>
  new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));

/**
 * Wrap the global fetch so the provider's requests go through `fetchDocumentStrictly`; every other
 * request passes untouched. Idempotent, and it wraps again if something replaced the global since.
 */
export function guardDocumentFetches(): void {
  const current = globalThis.fetch;
  if (GUARDED in current) return;
  const guarded = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const agent = headersOf(input, init).get("User-Agent") ?? "";
    if (!agent.startsWith(PROVIDER_USER_AGENT)) return current(input, init);
    return fetchDocumentStrictly(current, new Request(input, init));
  };
  globalThis.fetch = Object.assign(guarded, { [GUARDED]: true });
}
