// Every kind of setting checked the same way (src/settings/kinds.ts): whole numbers within their range
// at both ends, words of a fixed set, one spelling set for every flag, lists item by item, URLs. A value
// not taken is refused in the 503's words (its name, the value given, what is accepted), never guessed.
import { describe, expect, it, vi } from "vitest";
import { readSettings, type Settings } from "../../src/config";
import { FLAG_WORDS, settingDocs } from "../../src/settings/kinds";
import { SETTING_SCHEMAS } from "../../src/settings/vars";

const FIX = "; fix it in wrangler.toml [vars], .dev.vars or --var.";
/** The problems of an env holding only `vars`; the refusals' log lines are kept out of the output. */
function problemsOf(vars: Record<string, unknown>): readonly string[] {
  const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    return readSettings(vars).problems;
  } finally {
    log.mockRestore();
  }
}

/** Each setting's name and its doc, by kind. */
const docs = [...SETTING_SCHEMAS].map(([name, schema]) => ({ name, doc: settingDocs.get(schema) }));
const ranged = docs.flatMap(({ name, doc }) => (doc?.range ? [{ name, ...doc.range }] : []));
/** Every flag, and where its value lands. */
const FLAGS: Record<string, (settings: Settings) => boolean> = {
  ALLOW_ANONYMOUS: (settings) => settings.allowAnonymous,
  WORKFLOW_NUDGE: (settings) => settings.workflowNudge,
  WEBHOOK_ALLOW_LOOPBACK: (settings) => settings.webhooks.allowLoopback,
};
const flags = Object.keys(FLAGS);

describe("the values issue 41 found taken silently", () => {
  it.each([
    ["PARTIAL_MAX_PIECES", "5000", '"5000"', "a whole number from 1 to 1000"],
    ["PARTIAL_MAX_BYTES", "100000000000", '"100000000000"', "a whole number from 1024 to 1048576"],
    ["AUTH_MODE", "oauht", '"oauht"', "`apikeys` or `oauth`"],
    ["OAUTH_IDENTITY_PROVIDER", "gihub", '"gihub"', "`stand-in` or `github`"],
    ["TRANSITION_LOG", "batchd", '"batchd"', "`lines` or `batched`"],
    ["ALLOW_ANONYMOUS", "maybe", '"maybe"', "`true`, `1`, `yes`, `on`; or `false`, `0`, `no`, `off`"],
  ])("%s=%s is refused, naming the setting, the value and what it accepts", (name, value, shown, accepts) => {
    expect(problemsOf({ [name]: value })).toEqual([`${name} is ${shown}, but must be ${accepts}${FIX}`]);
  });

  it("an unknown AUTH_MODE leaves auth to the refusal: the settings never read it as API keys off", () => {
    const settings = readSettings({ AUTH_MODE: "oauht" });
    expect(settings.problems).toHaveLength(1);
    // What stands in for it is the default (http/app.ts serves nothing while `problems` is not empty).
    expect(settings.authMode).toBe("apikeys");
  });
});

describe("whole numbers, at both ends of every range", () => {
  it("knows the range of every numeric setting", () => {
    expect(ranged.map(({ name }) => name)).toContain("PARTIAL_MAX_PIECES");
    expect(ranged.length).toBeGreaterThanOrEqual(20);
  });

  it.each(ranged)("$name takes $min and refuses one less", ({ name, min }) => {
    expect(problemsOf({ [name]: String(min) })).toEqual([]);
    if (min > 0) expect(problemsOf({ [name]: String(min - 1) })).toHaveLength(1);
  });

  it.each(ranged.filter((r) => r.max !== undefined))("$name takes $max and refuses one more", ({ name, max }) => {
    expect(problemsOf({ [name]: String(max) })).toEqual([]);
    expect(problemsOf({ [name]: String(Number(max) + 1) })).toEqual([
      `${name} is "${Number(max) + 1}", but must be a whole number from ${ranged.find((r) => r.name === name)?.min} to ${max}${FIX}`,
    ]);
  });

  it("refuses fractions, signs, units and words; takes a TOML number and surrounding blanks", () => {
    for (const bad of ["1.5", "-1", "+5", "10s", "1e3", "0x10", "ten", true])
      expect(problemsOf({ INLINE_WAIT_MS: bad }), String(bad)).toHaveLength(1);
    expect(readSettings({ INLINE_WAIT_MS: 2500 }).inlineWaitMs).toBe(2500);
    expect(readSettings({ INLINE_WAIT_MS: " 2500 " }).inlineWaitMs).toBe(2500);
  });
});

describe("words of a fixed set", () => {
  it("reads each listed word case-blind, blank as the first", () => {
    expect(readSettings({ AUTH_MODE: "APIKEYS" }).authMode).toBe("apikeys");
    expect(readSettings({ AUTH_MODE: " " }).authMode).toBe("apikeys");
    expect(readSettings({ OAUTH_IDENTITY_PROVIDER: "Stand-In" }).identityProvider).toBe("stand-in");
    expect(readSettings({ TRANSITION_LOG: "LINES" }).transitionLog).toBe("lines");
  });

  it("refuses a TOML boolean where a word is wanted", () => {
    expect(problemsOf({ AUTH_MODE: true })).toEqual([`AUTH_MODE is true, but must be \`apikeys\` or \`oauth\`${FIX}`]);
  });
});

describe("flags: one spelling set, the same for every flag", () => {
  const on = [...FLAG_WORDS.on, "TRUE", "Yes", "ON", true];
  const off = [...FLAG_WORDS.off, "FALSE", "No", "Off", false];

  it.each(flags)("%s reads every spelling of on and of off, and blank as off", (name) => {
    const read = (value: unknown): boolean | undefined => {
      const settings = readSettings({ [name]: value });
      expect(settings.problems).toEqual([]);
      return FLAGS[name]?.(settings);
    };
    for (const value of on) expect(read(value), String(value)).toBe(true);
    for (const value of [...off, "", undefined]) expect(read(value), String(value)).toBe(false);
  });

  it("knows every flag of the table (a flag's doc accepts the spelling set)", () => {
    const accepting = docs.filter(({ doc }) => doc?.accepts.startsWith("`true`")).map(({ name }) => name);
    expect(accepting.sort()).toEqual([...flags].sort());
  });

  it.each(flags)("%s refuses anything else", (name) => {
    for (const value of ["y", "enabled", "2", "truee"]) expect(problemsOf({ [name]: value })).toHaveLength(1);
  });
});

describe("lists, item by item", () => {
  it("reads origins as browsers send them, and refuses what could never match one", () => {
    expect(readSettings({ ALLOWED_ORIGINS: "https://App.example/, http://localhost:5173" }).allowedOrigins).toEqual([
      "https://app.example",
      "http://localhost:5173",
    ]);
    expect(readSettings({ ALLOWED_ORIGINS: "*" }).allowedOrigins).toEqual(["*"]);
    for (const bad of ["app.example", "https://app.example/path", "ftp://app.example"])
      expect(problemsOf({ ALLOWED_ORIGINS: `https://ok.example,${bad}` }), bad).toHaveLength(1);
  });

  it("reads host names lower-case, and refuses a scheme or a port", () => {
    expect(readSettings({ ALLOWED_HOSTS: "Tunnel.Example, [::1]" }).allowedHosts).toEqual(["tunnel.example", "[::1]"]);
    expect(problemsOf({ ALLOWED_HOSTS: "https://tunnel.example" })).toHaveLength(1);
    expect(problemsOf({ ALLOWED_HOSTS: "tunnel.example:8443" })).toHaveLength(1);
  });

  it("takes ports from 1 to 65535 only, refusing the list for one bad item", () => {
    expect(readSettings({ WEBHOOK_ALLOWED_PORTS: "1,65535" }).webhooks.allowedPorts).toEqual([1, 65535]);
    for (const bad of ["0", "65536", "x", "8443.5"])
      expect(problemsOf({ WEBHOOK_ALLOWED_PORTS: `8443,${bad}` }), bad).toEqual([
        `WEBHOOK_ALLOWED_PORTS is "8443,${bad}", but must be port numbers from 1 to 65535, comma-separated${FIX}`,
      ]);
  });
});

describe("URLs and text", () => {
  it("takes an http(s) URL without its trailing slash, and refuses a bare host", () => {
    expect(readSettings({ GITHUB_API_URL: "https://ghe.example/api/v3/" }).github.apiUrl).toBe(
      "https://ghe.example/api/v3",
    );
    expect(problemsOf({ GITHUB_URL: "github.com" })).toHaveLength(1);
    expect(problemsOf({ GITHUB_URL: "javascript:alert(1)" })).toHaveLength(1);
  });

  it("never repeats a secret's value, and cuts a long value short", () => {
    expect(problemsOf({ WEBHOOK_SECRET: true })).toEqual([
      "WEBHOOK_SECRET is set to a value, but must be text; put a new one with `wrangler secret put WEBHOOK_SECRET` (for wrangler dev: .dev.vars or --var).",
    ]);
    const [long] = problemsOf({ TRANSITION_LOG: "x".repeat(500) });
    expect(long).toBe(`TRANSITION_LOG is "${"x".repeat(38)}…, but must be \`lines\` or \`batched\`${FIX}`);
  });
});

describe("a key in base64 (CALLER_KEY, CALLER_KEY_PREVIOUS)", () => {
  const key = (bytes: number) => btoa(String.fromCharCode(...new Uint8Array(bytes).fill(7)));
  const refusal = (name: string) =>
    `${name} is set to a value, but must be 32 random bytes in base64 (\`openssl rand -base64 32\`); put a new one with \`wrangler secret put ${name}\` (for wrangler dev: .dev.vars or --var).`;

  it("takes 32 bytes of base64, and unset", () => {
    expect(problemsOf({ CALLER_KEY: key(32), CALLER_KEY_PREVIOUS: ` ${key(32)}\n` })).toEqual([]);
    expect(problemsOf({})).toEqual([]);
  });

  it("refuses another length, text that is not base64 and a hex key, naming the secret and the fix, never the value", () => {
    const hex = "ab".repeat(32); // openssl rand -hex 32: valid base64 of 48 bytes
    for (const value of [key(16), "not base64!", hex]) {
      const problems = problemsOf({ CALLER_KEY: value });
      expect(problems).toEqual([refusal("CALLER_KEY")]);
      expect(problems.join("")).not.toContain(value);
    }
    expect(problemsOf({ CALLER_KEY_PREVIOUS: key(31) })).toEqual([refusal("CALLER_KEY_PREVIOUS")]);
  });
});
