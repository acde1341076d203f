/**
 * Is a webhook URL a safe destination? Only `https` to the public internet on the default
 * port (or an allowed one). Plain `http` and any port are allowed to loopback only when
 * WEBHOOK_ALLOW_LOOPBACK is set, for local dev and tests. IP literals in private, link-local,
 * CGNAT, metadata or reserved ranges (IPv6 forms included) and URLs with credentials are refused.
 */
import { classifyIpv4, classifyIpv6, parseIpv4, parseIpv6, type AddressClass } from "./ip-ranges";

export interface DestinationPolicy {
  allowLoopback: boolean;
  allowedPorts: readonly number[];
}

export type DestinationCheck = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;
/** Names that always mean "this machine" or a cloud metadata service, whatever DNS says. */
const LOOPBACK_NAME = /(^|\.)localhost\.?$/i;
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);

function classifyHost(hostname: string): AddressClass | "name" {
  const host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) {
    const groups = parseIpv6(host.slice(1, -1));
    return groups ? classifyIpv6(groups) : "reserved";
  }
  const v4 = parseIpv4(host);
  if (v4) return classifyIpv4(v4);
  if (LOOPBACK_NAME.test(host)) return "loopback";
  if (METADATA_NAMES.has(host.replace(/\.$/, ""))) return "metadata";
  return "name";
}

const REFUSED: Record<Exclude<AddressClass, "public" | "loopback">, string> = {
  private: "a private network address",
  "link-local": "a link-local address",
  metadata: "a cloud metadata endpoint",
  reserved: "a reserved or non-unicast address",
};

export function checkDestination(raw: string, policy: DestinationPolicy): DestinationCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "it is not an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: `the scheme "${url.protocol.replace(/:$/, "")}" is not https` };
  if (url.username !== "" || url.password !== "")
    return {
      ok: false,
      reason:
        "it contains credentials (user:password@); put secrets in the path or query, or verify our signature instead",
    };

  const kind = classifyHost(url.hostname);
  if (kind === "loopback") {
    if (!policy.allowLoopback)
      return {
        ok: false,
        reason:
          "it points at a loopback address (allowed only when the server sets WEBHOOK_ALLOW_LOOPBACK, for local development)",
      };
    // Local development: any scheme of the two, any port.
    return { ok: true, url };
  }
  if (kind !== "public" && kind !== "name")
    return { ok: false, reason: `its host ${url.hostname} is ${REFUSED[kind]}` };
  if (url.protocol !== "https:")
    return {
      ok: false,
      reason: "it does not use https (plain http is allowed only to loopback, when WEBHOOK_ALLOW_LOOPBACK is set)",
    };
  if (url.port !== "" && !policy.allowedPorts.includes(Number(url.port))) {
    return {
      ok: false,
      reason: `port ${url.port} is not allowed (use the default https port${policy.allowedPorts.length > 0 ? ` or one of ${policy.allowedPorts.join(", ")}` : ""}; the server's WEBHOOK_ALLOWED_PORTS lists the others)`,
    };
  }
  return { ok: true, url };
}
