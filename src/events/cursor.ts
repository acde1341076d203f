/**
 * Event cursors: opaque to clients, `<epoch>.<seq>` here. `seq` is a position in one event log (one
 * Durable Object); `epoch` names that log's life, so a cursor from a log that was since emptied and
 * begun again is seen for what it is (a gap), never read as a position in the new one.
 */
import { invalidParams } from "../protocol/errors";

export interface Position {
  epoch: string;
  seq: number;
}

const CURSOR = /^([0-9a-f]{16})\.(\d{1,15})$/;

export const encodeCursor = ({ epoch, seq }: Position): string => `${epoch}.${seq}`;

/** A client's cursor: null for "now"; anything unreadable is `-32602`. */
export function decodeCursor(raw: unknown): Position | null {
  if (raw === null || raw === undefined) return null;
  const match = typeof raw === "string" ? CURSOR.exec(raw) : null;
  if (!match?.[1] || match[2] === undefined)
    throw invalidParams("Invalid params: cursor is not one this server gave out; send null to start from now.");
  return { epoch: match[1], seq: Number(match[2]) };
}
