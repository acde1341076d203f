/**
 * The media-type checks of every JSON endpoint, written once: what a request body says it is, and
 * which of JSON and SSE the client accepts in answer (no Accept header accepts anything).
 */

/** The body is declared JSON (`application/json`, with or without parameters such as a charset). */
export const hasJsonContentType = (request: Request): boolean =>
  /^application\/json\b/i.test(request.headers.get("Content-Type") ?? "");

/** Which answers the client takes: a JSON body, an SSE stream, or both. */
export function acceptedTypes(request: Request): { json: boolean; sse: boolean } {
  const accept = request.headers.get("Accept") ?? "*/*";
  return { json: /application\/json|\*\/\*|application\/\*/i.test(accept), sse: /text\/event-stream/i.test(accept) };
}
