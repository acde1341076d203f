// The strict document fetch (src/http/oauth-document-fetch.ts) and the per-address key, on their own:
// the e2e tests (oauth-cimd, oauth-open-endpoints) run them on wrangler dev.
import { describe, it } from "vitest";
import { addressKey } from "../../src/http/address-rate-limit";
import { DOCUMENT_REFUSALS, fetchDocumentStrictly, isJsonMediaType } from "../../src/http/oauth-document-fetch";

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
const serve =
  (response: Response | Error): Fetch =>
  async (input, init) => {
    const request = new Request(input, init);
    if (request.redirect !== "manual") throw new Error(`fetched with redirect: ${request.redirect}`);
    if (response instanceof Error) throw response;
    return response;
  };
const agent = { "User-Agent": "workers-oauth-provider/1.2.3" };
const documentRequest = new Request("https://client.example/c.json", { headers: agent });

describe("isJsonMediaType", () => {
  it("takes application/json and +json types, with parameters, and nothing else", ({ expect }) => {
    const json = [
      "application/json",
      "Application/JSON; charset=utf-8",
      "application/oauth-client+json",
      "text/x+json",
    ];
    for (const type of json) expect(isJsonMediaType(type), type).toBe(true);
    const others = [
      null,
      "",
      "text/html",
      "text/plain; x=application/json",
      "application/jsonp",
      "application/json-seq",
    ];
    for (const type of [...others, "+json", "application/+json"])
      expect(isJsonMediaType(type), String(type)).toBe(false);
  });
});

describe("fetchDocumentStrictly", () => {
  it("hands on a 200 JSON document, read whole", async ({ expect }) => {
    const served = Response.json({ client_id: "x" }, { headers: { "Cache-Control": "max-age=60" } });
    const response = await fetchDocumentStrictly(serve(served), documentRequest);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("max-age=60");
    expect(await response.json()).toEqual({ client_id: "x" });
  });

  it("refuses a redirect, another status or media type, too much, a failed fetch: in its words", async ({ expect }) => {
    const cases: [Response | Error, string][] = [
      [new Response(null, { status: 307, headers: { Location: "http://127.0.0.1:1/" } }), DOCUMENT_REFUSALS.redirect],
      [Response.json({}, { status: 201 }), DOCUMENT_REFUSALS.status],
      [new Response("{}", { headers: { "Content-Type": "text/html" } }), DOCUMENT_REFUSALS.mediaType],
      [Response.json({ pad: "x".repeat(6000) }), DOCUMENT_REFUSALS.tooLarge],
      [new TypeError("internal error; reference = abc123"), DOCUMENT_REFUSALS.unreachable],
    ];
    for (const [answer, refusal] of cases) {
      await expect(fetchDocumentStrictly(serve(answer), documentRequest)).rejects.toThrow(refusal);
    }
  });
});

describe("addressKey", () => {
  it("keeps IPv4 and keys IPv6 by its /64", ({ expect }) => {
    expect(addressKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressKey("2001:db8:0:0:1::2")).toBe("2001:db8:0:0::/64");
    expect(addressKey("2001:0db8::1")).toBe(addressKey("2001:db8:0:0:ffff::9"));
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });
});
