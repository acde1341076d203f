/**
 * Session identity: 256 random bits as base64url (visible ASCII, as the transport spec
 * requires), and the Durable Object name derived from (principal, sessionId) so that
 * another principal's id lands in an empty object and reads as unknown.
 */

const SESSION_ID = /^[A-Za-z0-9_-]{16,128}$/;

export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Validate a client-supplied id before it is used in any name. */
export const isSessionId = (value: unknown): value is string => typeof value === "string" && SESSION_ID.test(value);

export const sessionObjectName = (principal: string, sessionId: string): string =>
  JSON.stringify(["session", principal, sessionId]);

/** The adapter-state kind a task keeps its watching sessions under (key: the session id). */
export const SESSION_WATCH_STATE = "session-watch";
