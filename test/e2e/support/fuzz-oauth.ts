/**
 * Hostile input for the OAuth endpoints anyone may call (AUTH_MODE=oauth, fuzzed by
 * test/e2e/fuzz.test.ts on a server of its own settings): /authorize's query and consent form,
 * /oauth/register (bodies over every cap, hostile members, forged CF-Connecting-IP addresses),
 * /oauth/token and the GitHub callback. Seeded through the test's dice.
 */
import type { Dice, FuzzRequest } from "./fuzz-input";

/** Addresses the fuzzer registers from: none of test/e2e/oauth-open-endpoints.test.ts's 203.0.113.x. */
const ADDRESSES = [
  ...["198.51.100.7", "198.51.100.8", "2001:db8::1", "2001:db8:0:0:1::2", "::ffff:198.51.100.9", ""],
  ...["not-an-ip", "::::::::", "1.2.3.4, 5.6.7.8", "x".repeat(300)],
];
const CLIENT_IDS = [
  ...["https://127.0.0.1:1/client.json", "https://127.0.0.1:1/", "http://127.0.0.1:1/client.json"],
  ...[
    "https://127.0.0.1:1/a/../client.json",
    "https://user:pw@127.0.0.1:1/c.json",
    "",
    "%00",
    "client",
    "x".repeat(3000),
  ],
];

const text = ({ pick, int }: Dice): string =>
  pick<() => string>([
    () => "",
    () => "a".repeat(1 + int(5000)),
    () => "\u0000\ud800💥",
    () => "../../x",
    () => "<script>",
    () => "__proto__",
    () => String(int(1e9)),
  ])();

/** A value for a registration member: a string, a list of them (past the caps or not), or something else. */
const member = (dice: Dice): unknown =>
  dice.pick<() => unknown>([
    () => text(dice),
    () => Array.from({ length: dice.pick([0, 1, 10, 11, 50]) }, () => text(dice)),
    () => ({ nested: text(dice) }),
    () => dice.int(1e6),
    () => null,
    () => [[["deep"]]],
  ])();

function registration(dice: Dice): string | Uint8Array {
  const { pick, int, rand } = dice;
  if (rand() < 0.1) return crypto.getRandomValues(new Uint8Array(1 + int(2048)));
  if (rand() < 0.1) return "[".repeat(1 + int(5000));
  if (rand() < 0.05) return JSON.stringify({ client_name: "s".repeat(17 * 1024) });
  const uris = Array.from({ length: pick([10, 11, 300]) }, (_, i) => `http://127.0.0.1:9/${i}`);
  const body: Record<string, unknown> = {
    redirect_uris: pick<unknown>([
      ["http://127.0.0.1:9/cb"],
      uris,
      [`http://127.0.0.1:9/${"a".repeat(2100)}`],
      ["javascript:alert(1)"],
      member(dice),
    ]),
  };
  const names = [
    "client_name",
    "client_uri",
    "logo_uri",
    "contacts",
    "grant_types",
    "token_endpoint_auth_method",
    "jwks",
  ];
  for (let i = int(6); i > 0; i--)
    body[pick([...names, "client_name#fr", "x".repeat(200), "__proto__", "scope"])] = member(dice);
  if (rand() < 0.1) for (let i = 0; i < 45; i++) body[`client_name#l${i}`] = "n";
  return pick<() => string | Uint8Array>([
    () => JSON.stringify(body),
    () => JSON.stringify(pick([[], null, 1, "x"])),
  ])();
}

export function oauthRequest(dice: Dice): FuzzRequest {
  const { pick, int, rand } = dice;
  const headers: Record<string, string> = { "CF-Connecting-IP": pick(ADDRESSES) };
  const kind = int(5);
  if (kind === 0) {
    headers["Content-Type"] = pick([
      "application/json",
      "application/json",
      "text/plain",
      "application/x-www-form-urlencoded",
      "",
    ]);
    // No body on a GET: the dev runtime leaves a GET's body unread on a kept-alive socket, where it garbles the next request.
    const method = pick(["POST", "POST", "POST", "GET", "PUT"]);
    return {
      method,
      path: "/oauth/register",
      headers,
      ...(method !== "GET" && rand() < 0.95 && { body: registration(dice) }),
    };
  }
  if (kind === 1) {
    headers["Content-Type"] = pick([
      "application/x-www-form-urlencoded",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json",
      "",
    ]);
    const form = new URLSearchParams({
      handle: text(dice),
      decision: pick(["approve", "deny", text(dice)]),
    }).toString();
    const body = pick<() => string | Uint8Array>([
      () => form,
      () => form + "&x=" + "a".repeat(int(20_000)),
      () => crypto.getRandomValues(new Uint8Array(1 + int(4096))),
      () => "%zz&&==&",
    ])();
    return { method: "POST", path: "/authorize", headers, body };
  }
  if (kind === 2) {
    const query = new URLSearchParams({
      response_type: pick(["code", "token", text(dice)]),
      client_id: pick(CLIENT_IDS),
      redirect_uri: pick(["http://127.0.0.1:9/callback", "javascript:x", text(dice)]),
      code_challenge: pick(["x".repeat(43), text(dice)]),
      code_challenge_method: pick(["S256", "plain", ""]),
      state: text(dice),
    });
    if (rand() < 0.5) query.delete(pick([...query.keys()]));
    return { method: "GET", path: `/authorize?${query}`, headers };
  }
  if (kind === 3) {
    headers["Content-Type"] = pick(["application/x-www-form-urlencoded", "application/json", ""]);
    const form = new URLSearchParams({
      grant_type: pick(["authorization_code", "refresh_token", "client_credentials", text(dice)]),
      code: text(dice),
      client_id: pick(CLIENT_IDS),
      code_verifier: text(dice),
    });
    if (rand() < 0.2) headers["Authorization"] = `Basic ${btoa(`${pick(CLIENT_IDS)}:${pick(["", "secret"])}`)}`;
    return {
      method: "POST",
      path: "/oauth/token",
      headers,
      body: rand() < 0.8 ? form.toString() : crypto.getRandomValues(new Uint8Array(1 + int(2048))),
    };
  }
  return {
    method: "GET",
    path: `/oauth/callback/github?${new URLSearchParams({ code: text(dice), state: text(dice), ...(rand() < 0.3 && { error: "access_denied" }) })}`,
    headers,
  };
}
