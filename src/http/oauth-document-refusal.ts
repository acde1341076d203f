/**
 * What a client is told when its client ID metadata document cannot be used: always one of our own
 * sentences, never the words of the provider library or the runtime (a fetch error can carry
 * addresses and internals). The provider's detail is matched against what its checks say, and
 * logged with the URL for the operator; a detail matching none gets our general sentence.
 */
import { DOCUMENT_REFUSALS, isDocumentRefusal } from "./oauth-document-fetch";

/** Our words for the provider's checks of a fetched document (after "could not be used: "). */
export const DOCUMENT_CHECKS = {
  notJson: "it is not a JSON object",
  clientId: "its client_id does not match the URL it is served at, and it must name itself",
  clientName: "it has no client_name",
  redirectUris:
    "its redirect_uris are missing, or one of them is not a redirect URI a client may use (https, or http on a loopback host; no fragment or user info)",
  secrets: "it holds a client secret or private key material, which a public document must not",
  authMethod:
    "it offers no token endpoint authentication this server accepts from such a client (none, or private_key_jwt with its public keys in the document)",
  identifier:
    "its URL cannot serve as a client_id (an https URL with a path, without user info, fragment or dot segments)",
  field: "one of its fields is not of the type the client metadata specification gives it",
  other: "it is not a client metadata document this server can use",
} as const;

/** The provider's messages (workers-oauth-provider 1.x), each to our sentence; the first that matches wins. */
const CHECKS: readonly (readonly [RegExp, string])[] = [
  [/timed out|^Failed to fetch client metadata/, DOCUMENT_REFUSALS.unreachable],
  [/exceeds size limit/, DOCUMENT_REFUSALS.tooLarge],
  [/not valid JSON|not valid UTF-8|must be a JSON object|response body is empty/, DOCUMENT_CHECKS.notJson],
  [/^client_id ".*" does not match metadata URL/s, DOCUMENT_CHECKS.clientId],
  [/^client_name is required/, DOCUMENT_CHECKS.clientName],
  [/redirect_uris is required|^Invalid redirect URI$|^Redirect URI must use/, DOCUMENT_CHECKS.redirectUris],
  [/must not contain (client secrets|private key material)/, DOCUMENT_CHECKS.secrets],
  [/token endpoint auth/i, DOCUMENT_CHECKS.authMethod],
  [/^Client Identifier URL/, DOCUMENT_CHECKS.identifier],
  [/^Invalid [a-z_]+:|must be included in/, DOCUMENT_CHECKS.field],
];

/** Why the document could not be used, in our words. */
export function documentReason(detail: string): string {
  if (isDocumentRefusal(detail)) return detail;
  return CHECKS.find(([pattern]) => pattern.test(detail))?.[1] ?? DOCUMENT_CHECKS.other;
}

/** The whole sentence for the client; the provider's own detail goes to the log only. */
export function documentRefusal(url: string, detail: string): string {
  const reason = documentReason(detail);
  if (reason !== detail) console.warn(`client metadata document ${url} refused: ${detail}`);
  return `The client's metadata document (${url}) could not be used: ${reason}.`;
}
