/**
 * The one place untrusted JSON enters: every request body is parsed here, with its nesting depth
 * measured on the text first, so nothing deeper than MAX_JSON_DEPTH is ever parsed, stored, sent
 * to a Durable Object (RPC's structured clone recurses) or walked by recursive code behind it.
 */

/** Deepest nesting of arrays and objects any request body may have (the envelope included). */
export const MAX_JSON_DEPTH = 64;

export type JsonInput = { ok: true; value: unknown } | { ok: false; reason: "parse" | "depth"; message: string };

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `text` nests arrays and objects more than `max` deep, found in one linear pass with no
 * recursion (brackets inside strings do not count; a string is skipped with indexOf, so long text
 * costs about what JSON.parse spends on it). Malformed JSON is left for JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (end < 0) return false;
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** The message every surface gives for a body nested too deep (a 400: the request is refused whole). */
export const tooDeepMessage = (max = MAX_JSON_DEPTH): string =>
  `The JSON is nested more than ${max} levels deep; this server accepts at most ${max} levels of arrays and objects in one request. Flatten the value and send it again.`;

/**
 * Parses a request body as JSON within the shared depth limit. Keys are compared after this
 * parse, so any JSON spelling of a key (`\u0069`, `\/`) is the key it decodes to.
 */
export function parseJsonInput(text: string, maxDepth = MAX_JSON_DEPTH): JsonInput {
  if (nestsDeeperThan(text, maxDepth)) return { ok: false, reason: "depth", message: tooDeepMessage(maxDepth) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "parse", message: "Parse error: the body is not valid JSON." };
  }
}
