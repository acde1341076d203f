/**
 * WebSocket calls that may meet a socket the other side already closed: readers come and go at
 * any time, and the object or Worker learns of it only through these calls or a close event.
 */

export function closeQuietly(ws: Pick<WebSocket, "close">, code = 1000, reason = "closed"): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}

export function sendQuietly(ws: WebSocket, message: string | ArrayBuffer | ArrayBufferView): void {
  try {
    ws.send(message);
  } catch {
    // a reader that went away is dropped by its close event
  }
}

/** Complete the close handshake the other side began, so the socket leaves getWebSockets() at once. */
export function completeClose(ws: WebSocket, code: number): void {
  closeQuietly(ws, code === 1005 || code === 1006 ? 1000 : code);
}
