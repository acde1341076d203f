/**
 * A chunked upload that sends `bytes` and then holds the body open (never ends it), waiting for the
 * answer: a server that reads within a cap answers as soon as the cap is passed; one that reads the
 * whole body first never answers, and the test fails on its timeout. Holding the body open (rather
 * than sending more) keeps the answer from being lost to a reset of a connection still being written to.
 */
import { request as httpRequest } from "node:http";

export interface UploadReply {
  status: number;
  text: string;
}

/**
 * The server answers before the body ends and closes a connection it left unread; on a loaded machine
 * the TCP reset can reach the client before it read the answer, and the kernel then drops the answer
 * ("socket hang up", once in eight fresh-clone runs). A server that stopped reading did answer, so
 * such a reset is asked again, up to three times; one that reads to the end never answers at all.
 */
export async function heldOpenUpload(
  url: string,
  headers: Record<string, string>,
  bytes: number,
): Promise<UploadReply> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await uploadOnce(url, headers, bytes);
    } catch (error) {
      const reset =
        error instanceof Error &&
        /socket hang up|ECONNRESET/.test(`${error.message} ${String(Reflect.get(error, "code"))}`);
      if (!reset || attempt >= 3) throw error;
    }
  }
}

function uploadOnce(url: string, headers: Record<string, string>, bytes: number): Promise<UploadReply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const path = `${target.pathname}${target.search}`;
    const chunked = { ...headers, "Transfer-Encoding": "chunked" };
    const req = httpRequest(
      { host: target.hostname, port: target.port, path, method: "POST", headers: chunked },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8") });
          req.destroy();
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.write(Buffer.alloc(bytes, "a"));
  });
}
