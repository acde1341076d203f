/**
 * The settings of the server the open-OAuth-endpoint tests share (oauth-open-endpoints.test.ts and
 * the fuzz test's OAuth part): OAuth with a GitHub provider configured, never reached by them.
 */
export const OPEN_ENDPOINTS_VARS = {
  AUTH_MODE: "oauth",
  OAUTH_IDENTITY_PROVIDER: "github",
  GITHUB_CLIENT_ID: "Iv1.open-endpoints",
  GITHUB_CLIENT_SECRET: "open-endpoints-secret",
};
