/**
 * The Events extension's errors (SEP-3415's provisional codes; EVENTS.md): each a JSON-RPC error
 * answered in-band, its `data` saying what a client can act on.
 */
import { ErrorCode, HttpProtocolError } from "../protocol/errors";

export const EventErrorCode = {
  NotFound: -32023,
  Forbidden: -32024,
  ResourceExhausted: -32025,
  Unsupported: -32026,
  CallbackEndpointError: -32027,
} as const;

export const eventNotFound = (name: string): HttpProtocolError =>
  new HttpProtocolError(
    EventErrorCode.NotFound,
    `Unknown event "${name.slice(0, 100)}": call events/list for the event types this server offers.`,
    200,
    { kind: "event" },
  );

export const forbidden = (why: string): HttpProtocolError =>
  new HttpProtocolError(EventErrorCode.Forbidden, `Forbidden: ${why}`, 200);

export const exhausted = (what: string, limit: number): HttpProtocolError =>
  new HttpProtocolError(EventErrorCode.ResourceExhausted, `Resource exhausted: ${what}`, 200, { limit, max: limit });

export const unsupported = (message: string, data: Record<string, string>): HttpProtocolError =>
  new HttpProtocolError(EventErrorCode.Unsupported, message, 200, data);

export const callbackFailed = (reason: string): HttpProtocolError =>
  new HttpProtocolError(
    EventErrorCode.CallbackEndpointError,
    `The callback URL did not pass verification (${reason}): serve the webhook handler there before subscribing, answer the verification challenge with {"challenge": …}, and allow a few seconds for the answer.`,
    200,
    { reason },
  );

export const invalidEventParams = (message: string): HttpProtocolError =>
  new HttpProtocolError(ErrorCode.InvalidParams, `Invalid params: ${message}`, 200);
