/**
 * A per-address rate limit for the open endpoints that need no auth (OAuth dynamic registration):
 * the same RateLimiterObject token bucket and in-isolate leases as the per-principal limit
 * (rate-limit.ts), keyed by the caller's address. IPv6 callers are keyed by their /64, which one
 * subscriber usually holds whole.
 */
import type { TemplateBindings } from "./env";
import { leaseSize, TokenLeases, type RateVerdict } from "../limits/token-lease";

// Isolate memory, as in rate-limit.ts: an evicted lease only drops unspent tokens.
const leases = new TokenLeases({ leaseMs: 1000, maxPrincipals: 1000 });

/** The key for an address: IPv4 as is, IPv6 by its first four groups (its /64). */
export function addressKey(address: string): string {
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  const zeros = Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0");
  const groups = address.includes("::") ? [...left, ...zeros, ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Spend one of `kind`'s tokens for the request's address: `perMinute` a minute, as many at once. */
export function spendForAddress(
  env: TemplateBindings,
  request: Request,
  kind: string,
  perMinute: number,
): Promise<RateVerdict> {
  // Cloudflare sets CF-Connecting-IP on every request (wrangler dev: the socket peer).
  const address = addressKey(request.headers.get("CF-Connecting-IP") ?? "unknown");
  return leases.spend(JSON.stringify([kind, address, perMinute]), leaseSize(perMinute), (want, giveBack) =>
    env.RATE_LIMITER.getByName(JSON.stringify([kind, address])).lease(perMinute, perMinute, want, giveBack),
  );
}
