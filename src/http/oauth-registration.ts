/**
 * What `/oauth/register` (dynamic client registration, open to anyone) lets in before the provider
 * stores a client in OAUTH_KV: a per-address rate (OAUTH_REGISTRATIONS_PER_MINUTE), a body cap, and
 * caps on the count and size of every value a registration keeps (redirect URIs, contacts, names,
 * URIs and their localised variants). The provider checks what the values mean.
 */
import type { Context } from "hono";
import * as z from "zod";
import { spendForAddress } from "./address-rate-limit";
import { readBodyWithLimit } from "./body";
import type { AppEnv } from "./env";
import { parseJsonInput } from "./json-input";
import { rewrapped } from "./oauth-token-admission";

export const REGISTRATION_LIMITS = {
  /** The whole body, in bytes. */
  bodyBytes: 16 * 1024,
  redirectUris: 10,
  redirectUriLength: 2000,
  /** Entries of any other list (contacts, grant_types, response_types, …). */
  listEntries: 10,
  /** Any other string, alone or in a list. */
  stringLength: 1000,
  /** Members in all (localised `client_name#fr` variants are members too). */
  members: 40,
} as const;
const L = REGISTRATION_LIMITS;

const anyString = z.string().max(L.stringLength, `strings are at most ${L.stringLength} characters`);
/** A member other than redirect_uris: a bounded string, a bounded list, or a scalar. */
const otherMember = z.union([
  anyString,
  z
    .array(z.union([anyString, z.number(), z.boolean(), z.null()]))
    .max(L.listEntries, `lists are at most ${L.listEntries} entries`),
  z.number(),
  z.boolean(),
  z.null(),
]);
const Registration = z
  .record(z.string().max(100, "member names are at most 100 characters"), z.unknown())
  .refine((members) => Object.keys(members).length <= L.members, `a registration has at most ${L.members} members`)
  .pipe(
    z.looseObject({
      redirect_uris: z
        .array(z.string().max(L.redirectUriLength, `a redirect URI is at most ${L.redirectUriLength} characters`))
        .max(L.redirectUris, `at most ${L.redirectUris} redirect_uris`)
        .optional(),
    }),
  )
  .superRefine((members, ctx) => {
    for (const [name, value] of Object.entries(members)) {
      if (name === "redirect_uris" || name === "jwks") continue;
      const checked = otherMember.safeParse(value);
      if (checked.success) continue;
      const why = checked.error.issues[0]?.message ?? "not a string, list or scalar";
      ctx.addIssue({ code: "custom", message: `${name}: ${why}` });
    }
  });

type Refusal = { ok: false; response: Response };
const refuse = (c: Context<AppEnv>, status: 400 | 413 | 429, error: string, text: string, headers = {}): Refusal => ({
  ok: false,
  response: c.json({ error, error_description: text }, status, headers),
});

/**
 * The registration request as the provider may read it (the body re-wrapped after our read), or
 * our refusal: 429 over the address's rate, 413 over the body cap, 400 past a count or size cap.
 */
export async function admitRegistration(c: Context<AppEnv>): Promise<{ ok: true; request: Request } | Refusal> {
  const request = c.req.raw;
  if (request.method !== "POST") return { ok: true, request };
  const perMinute = c.get("settings").oauthRegistrationsPerMinute;
  if (perMinute > 0) {
    const verdict = await spendForAddress(c.env, request, "oauth-register", perMinute);
    if (!verdict.ok) {
      const wait = verdict.retryAfterSeconds;
      const message = `Too many client registrations from this address (${perMinute} a minute). Retry after ${wait} s.`;
      return refuse(c, 429, "rate_limited", message, { "Retry-After": String(wait) });
    }
  }
  const body = await readBodyWithLimit(request, L.bodyBytes);
  if (!body.ok) return refuse(c, body.status, "invalid_request", body.message);
  const parsed = parseJsonInput(body.text);
  // Malformed JSON is the provider's to refuse, in its words (invalid_request); too deep is ours.
  if (!parsed.ok && parsed.reason === "depth") return refuse(c, 400, "invalid_request", parsed.message);
  if (parsed.ok && typeof parsed.value === "object" && parsed.value !== null && !Array.isArray(parsed.value)) {
    const checked = Registration.safeParse(parsed.value);
    if (!checked.success) {
      const why = checked.error.issues[0]?.message ?? "a value is over its cap";
      return refuse(c, 400, "invalid_client_metadata", `The registration is refused: ${why}.`);
    }
  }
  return { ok: true, request: rewrapped(request, body.text) };
}
