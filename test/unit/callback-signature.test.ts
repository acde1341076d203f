// Callback URLs as signed capabilities (issue 50, point 3): a job given CALLER_KEY hands out a
// signed URL, and the Worker's route refuses a forged, tampered, foreign-key or expired one before
// any Durable Object is reached (the namespace below records every use); unsigned URLs go on to the
// task's object, which checks them as before.
import { describe, it } from "vitest";
import type { JobHost } from "../../src/core";
import { callbackKeys, signCallback, verifyCallback, type CallbackClaim } from "../../src/jobs/callback-signature";
import type { JobContext } from "../../src/jobs/context";
import { runTool } from "../../src/jobs/runner";
import { callbackRoutes } from "../../src/http/callback-route";
import { memoryHost, MemoryTables } from "./memory-host";

const key = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const OBJECT_ID = "ab".repeat(32);
const TOKEN = "c".repeat(64);

/** A TASKS namespace that records what reaches it. */
function namespace() {
  const reached: unknown[][] = [];
  const stub = {
    callback: async (...args: unknown[]) => {
      reached.push(args);
      return "received";
    },
  };
  const TASKS = { idFromString: (id: string) => ({ id }), get: () => stub };
  return { TASKS, reached };
}

async function post(path: string, env: Record<string, unknown>): Promise<Response> {
  const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"ok":true}' };
  return callbackRoutes.request(`http://w.example${path}`, init, env);
}

async function signedPath(secret: string, claim: CallbackClaim): Promise<string> {
  const { current } = await callbackKeys({ CALLER_KEY: secret });
  if (!current) throw new Error("no key");
  const { objectId, name, token, expiresAt } = claim;
  return `/callbacks/${objectId}/${encodeURIComponent(name)}/${token}/${expiresAt}/${await signCallback(current, claim)}`;
}

describe("a job's callback URL", () => {
  const opener = (urls: string[]) => ({
    async run(_input: unknown, job: JobContext) {
      urls.push((await job.callback("done", { timeout: 60 })).url);
      return "opened";
    },
  });
  const open = (
    env: Record<string, unknown>,
    tables: MemoryTables,
    rows: Map<string, { signed: boolean; expiresAt: number }>,
  ) => {
    const host: JobHost = memoryHost(tables, {
      callbacks: {
        open: (name, expiresAt, signed) => {
          const fresh = !rows.has(name);
          if (fresh) rows.set(name, { signed, expiresAt });
          const row = rows.get(name) ?? { signed, expiresAt };
          const url = `https://w.example/callbacks/${OBJECT_ID}/${name}/${TOKEN}`;
          return { url, fresh, ...row, objectId: OBJECT_ID, token: TOKEN };
        },
        received: () => undefined,
      },
    });
    const identity = { env: env as unknown as Cloudflare.Env, caller: { ok: true as const, value: undefined } };
    return (urls: string[]) => runTool(opener(urls), {}, host, undefined, identity);
  };

  it("is signed under CALLER_KEY, over its object, name, token and expiry, and the same on a replay", async ({
    expect,
  }) => {
    const env = { CALLER_KEY: key() };
    const rows = new Map<string, { signed: boolean; expiresAt: number }>();
    const urls: string[] = [];
    const run = open(env, new MemoryTables(), rows);
    await run(urls);
    await run(urls);
    expect(new Set(urls).size).toBe(1);
    expect(rows.get("done")).toMatchObject({ signed: true });
    const match = /\/callbacks\/([0-9a-f]{64})\/done\/([0-9a-f]{64})\/(\d+)\/([\w-]{43})$/.exec(urls[0] ?? "");
    expect(match).not.toBeNull();
    const [, objectId = "", token = "", expiresAt = "", signature = ""] = match ?? [];
    const claim = { objectId, name: "done", token, expiresAt: Number(expiresAt) };
    expect(await verifyCallback(await callbackKeys(env), claim, signature)).toBe(true);
    expect(await verifyCallback(await callbackKeys({ CALLER_KEY: key() }), claim, signature)).toBe(false);
  });

  it("is unsigned without CALLER_KEY (local dev), as before", async ({ expect }) => {
    const rows = new Map<string, { signed: boolean; expiresAt: number }>();
    const urls: string[] = [];
    await open({}, new MemoryTables(), rows)(urls);
    expect(urls).toEqual([`https://w.example/callbacks/${OBJECT_ID}/done/${TOKEN}`]);
    expect(rows.get("done")).toMatchObject({ signed: false });
  });
});

describe("the callback route", () => {
  const secret = key();
  const claim = { objectId: OBJECT_ID, name: "done", token: TOKEN, expiresAt: Date.now() + 600_000 };

  it("delivers a signed URL to the task's object, marked signed", async ({ expect }) => {
    const { TASKS, reached } = namespace();
    const response = await post(await signedPath(secret, claim), { CALLER_KEY: secret, TASKS });
    expect(response.status).toBe(202);
    expect(reached).toEqual([["done", TOKEN, { ok: true }, true]]);
  });

  it("refuses forged, tampered, foreign and expired signed URLs before any object is reached", async ({ expect }) => {
    const { TASKS, reached } = namespace();
    const env = { CALLER_KEY: secret, TASKS };
    const path = await signedPath(secret, claim);
    const signature = path.slice(path.lastIndexOf("/") + 1);
    const cases: [string, number][] = [
      [
        path.replace(
          signature,
          signature.replace(/^./, (c) => (c === "A" ? "B" : "A")),
        ),
        404,
      ],
      [path.replace(`/${claim.expiresAt}/`, `/${claim.expiresAt + 1}/`), 404],
      [path.replace(`/${TOKEN}/`, `/${"d".repeat(64)}/`), 404],
      [path.replace("/done/", "/other/"), 404],
      [await signedPath(key(), claim), 404],
      [await signedPath(secret, { ...claim, expiresAt: Date.now() - 1 }), 410],
      [path.replace(signature, "short"), 404],
    ];
    for (const [forged, status] of cases) {
      const response = await post(forged, env);
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: status === 404 ? "unknown_callback" : "callback_expired" });
    }
    // Without a key, a signed URL cannot be checked: refused, no object reached.
    expect((await post(path, { TASKS })).status).toBe(404);
    expect(reached).toEqual([]);
  });

  it("verifies URLs signed before a rotation with CALLER_KEY_PREVIOUS", async ({ expect }) => {
    const { TASKS, reached } = namespace();
    const response = await post(await signedPath(secret, claim), {
      CALLER_KEY: key(),
      CALLER_KEY_PREVIOUS: secret,
      TASKS,
    });
    expect(response.status).toBe(202);
    expect(reached).toHaveLength(1);
  });

  it("hands an unsigned URL to the task's object, which checks its token (and refuses it for a signed callback)", async ({
    expect,
  }) => {
    const { TASKS, reached } = namespace();
    const response = await post(`/callbacks/${OBJECT_ID}/done/${TOKEN}`, { CALLER_KEY: secret, TASKS });
    expect(response.status).toBe(202);
    expect(reached).toEqual([["done", TOKEN, { ok: true }, false]]);
  });
});
