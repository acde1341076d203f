/**
 * The kinds of setting (whole numbers in a range, words of a fixed set, flags, lists, URLs, text), each
 * a zod schema that takes a var as wrangler hands it over (unset, a string, or a TOML number or
 * boolean) and either reads it or refuses it with what it accepts: none guesses, none clamps.
 */
import * as z from "zod";

/** What docs/settings.md's table says of a setting: test/unit/settings-docs.test.ts holds the two to one another. */
export interface SettingDoc {
  /** What the setting accepts, in words: the 503's "must be …" and the table's "accepts" column. */
  accepts: string;
  /** The default as the table writes it (the first backticked value of its "default" column). */
  fallback: string;
  /** A secret's value is never repeated, not even in the operator's log. */
  secret?: boolean;
  /** A whole number's bounds (no max: none). */
  range?: { min: number; max?: number };
}

/** Every setting's schema, with its doc: the 503 reads `accepts`, the docs test both. */
export const settingDocs = z.registry<SettingDoc>();

const isBlank = (raw: unknown): boolean =>
  raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "");

/** A var as wrangler gives it (a TOML number or boolean becomes its text), trimmed; undefined if unset. */
const asText = (raw: unknown): string | undefined =>
  typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean" ? String(raw).trim() : undefined;

/** A schema for a setting: `read` maps a non-blank var to its value, or undefined to refuse it. */
function setting<T>(doc: SettingDoc, fallback: T, read: (raw: unknown) => T | undefined) {
  const schema = z.unknown().transform((raw, ctx): T => {
    if (isBlank(raw)) return fallback;
    const value = read(raw);
    if (value !== undefined) return value;
    ctx.addIssue({ code: "custom", message: doc.accepts });
    return z.NEVER;
  });
  return schema.register(settingDocs, doc);
}

/** A whole number from `min` to `max` (a max of undefined: no upper bound). */
export function whole(fallback: number, min: number, max?: number) {
  const accepts = max === undefined ? `a whole number, at least ${min}` : `a whole number from ${min} to ${max}`;
  const range = { min, ...(max !== undefined && { max }) };
  return setting({ accepts, fallback: String(fallback), range }, fallback, (raw) => {
    const text = asText(raw);
    const n = typeof raw === "number" ? raw : text !== undefined && /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max) ? n : undefined;
  });
}

/** One word of `words`, case-blind; the first is the default (a blank var means it). */
export function oneOf<const W extends readonly [string, ...string[]]>(words: W) {
  const [fallback] = words;
  const listed = words.map((word) => `\`${word}\``);
  const accepts = `${listed.slice(0, -1).join(", ")} or ${listed.at(-1)}`;
  return setting<W[number]>({ accepts, fallback }, fallback, (raw) => {
    const word = asText(raw)?.toLowerCase();
    return words.find((known): known is W[number] => known === word);
  });
}

/** The one spelling set of every flag, case-blind: a TOML boolean, or one of these words. */
export const FLAG_WORDS = { on: ["true", "1", "yes", "on"], off: ["false", "0", "no", "off"] } as const;
const FLAG_ACCEPTS = `${FLAG_WORDS.on.map((w) => `\`${w}\``).join(", ")}; or ${FLAG_WORDS.off.map((w) => `\`${w}\``).join(", ")}`;

/** A flag, off unless set on. */
export function flag() {
  return setting({ accepts: FLAG_ACCEPTS, fallback: "false" }, false, (raw) => {
    const word = asText(raw)?.toLowerCase() ?? "";
    if ((FLAG_WORDS.on as readonly string[]).includes(word)) return true;
    if ((FLAG_WORDS.off as readonly string[]).includes(word)) return false;
    return undefined;
  });
}

/**
 * A comma-separated list, blank items dropped; `item` reads one item (trimmed), or refuses it and so the
 * whole list. Empty by default.
 */
export function list<T>(accepts: string, item: (text: string) => T | undefined) {
  return setting<T[]>({ accepts, fallback: "" }, [], (raw) => {
    const items = (asText(raw) ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "");
    const read = items.map(item);
    return read.every((value): value is T => value !== undefined) ? read : undefined;
  });
}

/** An absolute http or https URL, kept without a trailing slash. */
export function httpUrl(fallback: string) {
  const accepts = "an absolute `https://` (or `http://`) URL";
  return setting({ accepts, fallback }, fallback, (raw) => {
    const text = asText(raw) ?? "";
    if (!URL.canParse(text)) return undefined;
    const { protocol } = new URL(text);
    return protocol === "https:" || protocol === "http:" ? text.replace(/\/+$/, "") : undefined;
  });
}

/** Text as set (untrimmed: API_KEYS' own parser says what is wrong with it); undefined when unset or blank. */
/**
 * A key of `bytes` random bytes in base64 (a secret): kept as its text, checked here so a malformed
 * one is refused as a setting (the 503, check-settings) before anything is sealed with it.
 */
export function base64Key(bytes: number) {
  const doc: SettingDoc = {
    accepts: `${bytes} random bytes in base64 (\`openssl rand -base64 ${bytes}\`)`,
    fallback: "unset",
    secret: true,
  };
  return setting<string | undefined>(doc, undefined, (raw) => {
    if (typeof raw !== "string") return undefined;
    try {
      return atob(raw.trim()).length === bytes ? raw.trim() : undefined;
    } catch {
      // Not base64 (atob's InvalidCharacterError).
      return undefined;
    }
  });
}

export function text(secret = false) {
  const doc: SettingDoc = { accepts: "text", fallback: "unset", ...(secret && { secret }) };
  return setting<string | undefined>(doc, undefined, (raw) =>
    typeof raw === "string" || typeof raw === "number" ? String(raw) : undefined,
  );
}
