// Who an adopter's task request is from (src/adopt/principal.ts) and what "loopback" means on both
// lanes and the template's own (src/http/origin.ts): the adopter's principal() may throw or answer
// something that is not an id; neither reaches the caller as a stack or the store as a principal.
import { afterEach, describe, it, vi } from "vitest";
import { PER_TASK_PRINCIPAL } from "../../src/core";
import { isLoopbackRequest } from "../../src/http/origin";
import { resolveCaller, type PrincipalOf } from "../../src/adopt/principal";

/** Only passed through to the adopter's functions (and waitUntil): the parts a test reaches, on an untyped base. */
const ctx: ExecutionContext = Object.assign(Object.create(null), {
  waitUntil: () => undefined,
  passThroughOnException: () => undefined,
  props: {},
});
const request = (headers: Record<string, string> = {}) =>
  new Request("http://127.0.0.1:8787/mcp", { method: "POST", headers });
/** An adopter's function answering what JSON.parse gives (any, as plain JavaScript answers), whatever its type says. */
const answering =
  (json: string): PrincipalOf =>
  async () =>
    JSON.parse(json);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("resolveCaller with the adopter's principal()", () => {
  it("answers a throw as a caller it could not name (401), in words that hide its cause, and logs the cause", async ({
    expect,
  }) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const cause = new TypeError("Cannot read properties of undefined (reading 'userId') at secret-backend.internal");
    const caller = await resolveCaller(
      () => {
        throw cause;
      },
      request(),
      {},
      ctx,
    );
    expect(caller).toEqual({
      ok: false,
      refusal: {
        status: 401,
        error: "unauthenticated",
        message: expect.stringContaining("could not tell who is calling"),
      },
    });
    expect(JSON.stringify(caller)).not.toMatch(/userId|secret-backend/);
    expect(log).toHaveBeenCalledWith(expect.stringContaining("principal() threw"), cause);
  });

  it("answers a rejected promise the same way", async ({ expect }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const caller = await resolveCaller(() => Promise.reject(new Error("auth backend down")), request(), {}, ctx);
    expect(caller).toMatchObject({ ok: false, refusal: { status: 401, error: "unauthenticated" } });
  });

  it("refuses a number or an object, naming the option, before anything is stored under it", async ({ expect }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const [answer, kind] of [
      ["12345", "a number"],
      ['{ "id": "u1" }', "an object"],
      ['["u1"]', "an array"],
      ["true", "a boolean"],
    ]) {
      const caller = await resolveCaller(answering(answer ?? ""), request(), {}, ctx);
      expect(caller).toMatchObject({ ok: false, refusal: { status: 403, error: "principal_invalid" } });
      const message = caller.ok ? "" : caller.refusal.message;
      expect(message).toContain("durableTasks({ principal })");
      expect(message).toContain(kind);
    }
  });

  it("takes null as undefined: nobody known, 401", async ({ expect }) => {
    const caller = await resolveCaller(answering("null"), request(), {}, ctx);
    expect(caller).toMatchObject({ ok: false, refusal: { status: 401, error: "unauthenticated" } });
  });

  it("keeps a string id as it is", async ({ expect }) => {
    expect(await resolveCaller(() => "alice", request(), {}, ctx)).toEqual({ ok: true, principal: "alice" });
  });
});

describe("loopback without a principal(): the runtime's word on the connection, not the Host alone", () => {
  const hosts = ["localhost", "127.1.2.3", "[::1]", "x.localhost"];

  it("refuses a loopback Host from an address that is not loopback (wrangler dev --ip 0.0.0.0)", async ({ expect }) => {
    for (const host of hosts) {
      const caller = await resolveCaller(undefined, request({ Host: host, "CF-Connecting-IP": "192.0.2.10" }), {}, ctx);
      expect(caller).toMatchObject({ ok: false, refusal: { status: 403, error: "principal_not_configured" } });
    }
  });

  it("serves a loopback Host from a loopback address, and where the runtime names no address", async ({ expect }) => {
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1", undefined]) {
      const headers = { Host: "localhost:8787", ...(peer !== undefined && { "CF-Connecting-IP": peer }) };
      expect(await resolveCaller(undefined, request(headers), {}, ctx)).toEqual({ ok: true, principal: "anonymous" });
    }
  });

  it("is the template's own rule too (src/http/auth.ts and the OAuth stand-in sign-in ask isLoopbackRequest)", ({
    expect,
  }) => {
    for (const host of hosts) {
      expect(isLoopbackRequest(request({ Host: host, "CF-Connecting-IP": "192.0.2.10" }))).toBe(false);
      expect(isLoopbackRequest(request({ Host: host, "CF-Connecting-IP": "127.0.0.1" }))).toBe(true);
    }
    expect(isLoopbackRequest(request({ Host: "evil.example", "CF-Connecting-IP": "127.0.0.1" }))).toBe(false);
  });
});

describe('principal: "per-task" (a server with no sign-in, issue 49 point 5)', () => {
  it("serves every caller, loopback or not, as the one per-task principal; the refusal without it names the choice", async ({
    expect,
  }) => {
    const callers: Record<string, string>[] = [
      { Host: "mcp.example.com", "CF-Connecting-IP": "192.0.2.10" },
      { Host: "localhost" },
    ];
    for (const headers of callers) {
      expect(await resolveCaller("per-task", request(headers), {}, ctx)).toEqual({
        ok: true,
        principal: PER_TASK_PRINCIPAL,
      });
    }
    const refused = await resolveCaller(undefined, request({ Host: "mcp.example.com" }), {}, ctx);
    expect(refused).toMatchObject({
      ok: false,
      refusal: { error: "principal_not_configured", message: expect.stringContaining('principal: "per-task"') },
    });
  });

  it("refuses a principal() that answers the per-task principal's name: a signed-in caller never joins the anonymous ones", async ({
    expect,
  }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const caller = await resolveCaller(() => PER_TASK_PRINCIPAL, request(), {}, ctx);
    expect(caller).toMatchObject({ ok: false, refusal: { status: 403, error: "principal_invalid" } });
  });
});
