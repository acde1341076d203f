// Never the runtime's words to a client: a client metadata document's refusal (oauth-document-refusal.ts)
// and a failed GitHub sign-in (oauth-github.ts) say one of our sentences; the cause goes to the log.
import { afterEach, describe, it, vi } from "vitest";
import { DOCUMENT_REFUSALS } from "../../src/http/oauth-document-fetch";
import { DOCUMENT_CHECKS, documentReason, documentRefusal } from "../../src/http/oauth-document-refusal";
import { GitHubSignInError, githubUser, signInFailure } from "../../src/http/oauth-github";

const OURS = new Set<string>([...Object.values(DOCUMENT_REFUSALS), ...Object.values(DOCUMENT_CHECKS)]);
const GITHUB = { clientId: "Iv1.x", clientSecret: "s", webUrl: "https://gh.test", apiUrl: "https://api.gh.test" };

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("a client metadata document's refusal", () => {
  it("names the provider's checks in our sentences (messages of workers-oauth-provider 1.2)", ({ expect }) => {
    const checks: [string, string][] = [
      [
        'client_id "https://a.example/x.json" does not match metadata URL "https://a.example/y.json"',
        DOCUMENT_CHECKS.clientId,
      ],
      ["client_name is required and must not be empty", DOCUMENT_CHECKS.clientName],
      ["redirect_uris is required and must not be empty", DOCUMENT_CHECKS.redirectUris],
      ["Redirect URI must use https, or http on a loopback host", DOCUMENT_CHECKS.redirectUris],
      ["CIMD documents must not contain client secrets", DOCUMENT_CHECKS.secrets],
      [
        "CIMD clients cannot use symmetric token endpoint authentication method: client_secret_basic",
        DOCUMENT_CHECKS.authMethod,
      ],
      ["Client Identifier URL must not contain a fragment", DOCUMENT_CHECKS.identifier],
      ["Invalid client_uri: must be an absolute http: or https: URL", DOCUMENT_CHECKS.field],
      ["Client metadata response is not valid JSON", DOCUMENT_CHECKS.notJson],
      ["Client metadata fetch timed out after 5000ms", DOCUMENT_REFUSALS.unreachable],
      ["Failed to fetch client metadata: HTTP 503", DOCUMENT_REFUSALS.unreachable],
      [DOCUMENT_REFUSALS.redirect, DOCUMENT_REFUSALS.redirect],
    ];
    for (const [detail, ours] of checks) expect(documentReason(detail), detail).toBe(ours);
  });

  it("passes on no word of a detail it does not know, which the old deny-list let through", ({ expect }) => {
    const log = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const runtime = [
      "Network connection lost.",
      "getaddrinfo ENOTFOUND metadata.internal.corp",
      "Cannot read properties of undefined (reading 'keys')",
      "Some new check of a future provider release: <b>x</b>",
    ];
    for (const detail of runtime) {
      expect(OURS.has(documentReason(detail)), detail).toBe(true);
      const sentence = documentRefusal("https://c.example/c.json", detail);
      expect(sentence).toBe(
        `The client's metadata document (https://c.example/c.json) could not be used: ${DOCUMENT_CHECKS.other}.`,
      );
    }
    // The operator still learns what happened.
    expect(log.mock.calls.map((args) => args.join(" "))).toContain(
      "client metadata document https://c.example/c.json refused: Network connection lost.",
    );
  });
});

describe("a failed GitHub sign-in", () => {
  it("says our sentence for a fetch that fails, and logs the runtime's error", async ({ expect }) => {
    const cause = new TypeError("fetch failed: connect ECONNREFUSED 10.20.30.40:443 (internal error; reference = x1)");
    vi.stubGlobal("fetch", async () => {
      throw cause;
    });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = await githubUser(GITHUB, "https://mcp.example", "code").catch((thrown: unknown) => thrown);
    const message = signInFailure(error);
    expect(message).toBe(
      "Sign-in with GitHub failed: GitHub could not be reached. Try again; if it keeps failing, the server's log says why.",
    );
    expect(message).not.toMatch(/ECONNREFUSED|10\.20|reference|fetch failed/);
    expect(log).toHaveBeenCalledWith("sign-in with GitHub failed:", cause);
  });

  it("names GitHub's error code but not its description, which is logged", async ({ expect }) => {
    const reply = { error: "bad_verification_code", error_description: "The code passed is incorrect <script>" };
    vi.stubGlobal("fetch", async () => Response.json(reply));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = await githubUser(GITHUB, "https://mcp.example", "code").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GitHubSignInError);
    expect(signInFailure(error)).toBe(
      "GitHub refused the sign-in (bad_verification_code); start it again from your client.",
    );
    expect(warn).toHaveBeenCalledWith("GitHub refused a sign-in:", reply.error, reply.error_description);
  });

  it("does not repeat an error code that is not an OAuth word", async ({ expect }) => {
    vi.stubGlobal("fetch", async () => Response.json({ error: "Nope <img src=x>" }));
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = await githubUser(GITHUB, "https://mcp.example", "code").catch((thrown: unknown) => thrown);
    expect(signInFailure(error)).toBe("GitHub refused the sign-in; start it again from your client.");
  });
});
