/**
 * GitHub as the identity provider of AUTH_MODE=oauth (OAUTH_IDENTITY_PROVIDER=github), the way
 * Cloudflare's remote-MCP templates sign users in: after the consent page, the browser goes to
 * GitHub's authorize page; GitHub sends it back to /oauth/callback/github with a code, which is
 * exchanged for a GitHub token, which names the user. Only the user's id and login are kept.
 */
import * as z from "zod";
import type { GitHubSettings } from "../config";

export const GITHUB_CALLBACK_PATH = "/oauth/callback/github";

/** The GitHub settings, or what is missing: the operator's mistake, said with its fix. */
export function githubSettings(
  settings: GitHubSettings,
): { ok: true; settings: GitHubSettings } | { ok: false; message: string } {
  const missing = [
    settings.clientId === "" && "GITHUB_CLIENT_ID (a var)",
    settings.clientSecret === "" && "GITHUB_CLIENT_SECRET (a secret)",
  ].filter(Boolean);
  if (missing.length > 0)
    return {
      ok: false,
      message: `OAUTH_IDENTITY_PROVIDER=github needs ${missing.join(" and ")}: create a GitHub OAuth app whose callback URL is https://<this host>${GITHUB_CALLBACK_PATH} (docs/security.md).`,
    };
  return { ok: true, settings };
}

/** GitHub's authorize page for this sign-in; `state` comes back on the callback. */
export function githubAuthorizeUrl(settings: GitHubSettings, origin: string, state: string): string {
  const url = new URL(`${settings.webUrl}/login/oauth/authorize`);
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("redirect_uri", `${origin}${GITHUB_CALLBACK_PATH}`);
  url.searchParams.set("state", state);
  // Public profile only: the server needs to know who, not to act on GitHub for them.
  url.searchParams.set("scope", "read:user");
  url.searchParams.set("allow_signup", "false");
  return url.toString();
}

const TokenReply = z.union([
  z.object({ access_token: z.string().min(1) }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);
const GitHubUser = z.object({ id: z.number().int().positive(), login: z.string().min(1).max(100) });
export type GitHubUser = z.infer<typeof GitHubUser>;

/** A sign-in GitHub did not complete, in our words: the only error whose message reaches the client. */
export class GitHubSignInError extends Error {
  override name = "GitHubSignInError";
}

/** What the client is told of a failed sign-in: our sentence; anything else (a fetch's own error) is logged only. */
export function signInFailure(error: unknown): string {
  if (error instanceof GitHubSignInError) return error.message;
  console.error("sign-in with GitHub failed:", error);
  return "Sign-in with GitHub failed: GitHub could not be reached. Try again; if it keeps failing, the server's log says why.";
}

/** An OAuth error code as GitHub sends it (`bad_verification_code`); anything else is not repeated. */
const ERROR_CODE = /^[a-z_]{1,64}$/;

/**
 * Who signed in: the callback's code exchanged for a token, then GET /user. Throws a GitHubSignInError
 * with a reason to show; a failed fetch throws the runtime's own error, which is for the log only.
 */
export async function githubUser(settings: GitHubSettings, origin: string, code: string): Promise<GitHubUser> {
  const tokenResponse = await fetch(`${settings.webUrl}/login/oauth/access_token`, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      code,
      redirect_uri: `${origin}${GITHUB_CALLBACK_PATH}`,
    }),
  });
  const token = TokenReply.safeParse(await tokenResponse.json().catch(() => undefined));
  if (!tokenResponse.ok || !token.success)
    throw new GitHubSignInError(`GitHub's token endpoint answered ${tokenResponse.status} without a token.`);
  if ("error" in token.data) {
    // GitHub's description is its own words: logged, not passed on; its error code is a fixed OAuth word.
    console.warn("GitHub refused a sign-in:", token.data.error, token.data.error_description ?? "");
    const named = ERROR_CODE.test(token.data.error) ? ` (${token.data.error})` : "";
    throw new GitHubSignInError(`GitHub refused the sign-in${named}; start it again from your client.`);
  }
  const userResponse = await fetch(`${settings.apiUrl}/user`, {
    // GitHub's API refuses requests without a User-Agent.
    headers: {
      Authorization: `Bearer ${token.data.access_token}`,
      Accept: "application/vnd.github+json",
      "User-Agent": "mcp-task-worker",
    },
  });
  const user = GitHubUser.safeParse(await userResponse.json().catch(() => undefined));
  if (!userResponse.ok || !user.success)
    throw new GitHubSignInError(`GitHub's /user answered ${userResponse.status} without a user.`);
  return user.data;
}
