// The caller's key on the step after a question answered an hour later, on vitest's fake clock (the
// project's injected clock for runs: runner.test.ts): the engine's runner, the caller sealed with
// CALLER_KEY as a task stores it, and the fixtures' `upstream_report` (the tool the e2e adopters
// run). Run 1 reads page 1 and asks; the clock moves an hour; the answer arrives; run 2 reads page 2
// with the same key. A token that expires meanwhile is what `resolveCaller` is for: refreshed at the
// run after the hour, and when it cannot be, the task fails in the resolver's words.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { JobHost } from "../../src/core";
import { sealCaller } from "../../src/jobs/caller-seal";
import type { ResolveCaller } from "../../src/jobs/run-identity";
import { jobRunner } from "../../src/jobs/runner";
import type { JsonObject } from "../../src/json";
import { toolHolder } from "../../src/package/tool-set";
import { upstreamReport } from "../fixtures/adopter-tools";
import { memoryHost, MemoryTables } from "./memory-host";

const HOUR = 3600_000;
const KEY = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
// The Worker's env as a run gets it: a test's has only the secret (as caller.test.ts builds it).
const env = { CALLER_KEY: KEY } as unknown as Cloudflare.Env;
const API = "http://upstream.test";
const ARGS = { api: API, pauseSeconds: 0 };

/** What the upstream API saw: each page asked for, with the bearer it came with, at the clock's time. */
let seen: { page: string; bearer: string | null; at: number }[] = [];

beforeEach(() => {
  // Only Date is faked: the clock moves when the test says, and nothing else waits on it.
  vi.useFakeTimers({ toFake: ["Date"] });
  seen = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const bearer = new Headers(init?.headers).get("Authorization");
    seen.push({ page: url.pathname, bearer, at: Date.now() });
    return new Response(url.pathname.slice(1));
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** One task's tables across runs, and a host for each run with the caller it stored. */
function task(stored: JsonObject): { tables: MemoryTables; host(): JobHost } {
  const tables = new MemoryTables();
  let attempt = 0;
  return {
    tables,
    host: () => memoryHost(tables, { attempt: ++attempt, principal: "alice", loadCaller: () => stored }),
  };
}

const runner = (resolve?: ResolveCaller) =>
  jobRunner(toolHolder().record([upstreamReport]).find, env, undefined, () => resolve);

const answerMore = (tables: MemoryTables) => tables.answers.set("more", { action: "accept", content: { more: true } });

describe("a question answered an hour later (fake clock)", () => {
  it("hands the caller's key to the step after the answer, as to the one before", async () => {
    const one = task(await sealCaller({ apiKey: "up-alice" }, "alice", env));
    const run = runner();
    const asked = await run("upstream_report", ARGS, one.host());
    expect(asked).toMatchObject({ kind: "input" });
    const startedAt = Date.now();

    vi.setSystemTime(startedAt + HOUR);
    answerMore(one.tables);
    const done = await run("upstream_report", ARGS, one.host());

    expect(done).toMatchObject({ kind: "completed" });
    expect(seen.map(({ page, bearer }) => [page, bearer])).toEqual([
      ["/page/1", "Bearer up-alice"],
      ["/page/2", "Bearer up-alice"],
    ]);
    expect((seen[1]?.at ?? 0) - startedAt).toBeGreaterThanOrEqual(HOUR);
  });

  it("refreshes a token that expired meanwhile through resolveCaller, at the run after the answer", async () => {
    const one = task(await sealCaller({ grant: "g1" }, "alice", env));
    // A 30-minute access token, minted for the grant at each run (an OAuth refresh, in small).
    const minted: number[] = [];
    const run = runner((stored) => {
      minted.push(Date.now());
      return { apiKey: `token-${String(stored["grant"])}-until-${Date.now() + HOUR / 2}` };
    });
    expect(await run("upstream_report", ARGS, one.host())).toMatchObject({ kind: "input" });
    const startedAt = Date.now();
    vi.setSystemTime(startedAt + HOUR);
    answerMore(one.tables);
    expect(await run("upstream_report", ARGS, one.host())).toMatchObject({ kind: "completed" });
    expect(seen.map(({ bearer }) => bearer)).toEqual([
      `Bearer token-g1-until-${startedAt + HOUR / 2}`,
      `Bearer token-g1-until-${startedAt + HOUR + HOUR / 2}`,
    ]);
    expect(minted).toEqual([startedAt, startedAt + HOUR]);
  });

  it("fails in the resolver's words when the grant was revoked during the hour, calling nothing", async () => {
    const one = task(await sealCaller({ grant: "g1" }, "alice", env));
    let revoked = false;
    const run = runner((stored) => {
      if (revoked) throw new Error(`the grant ${String(stored["grant"])} was revoked`);
      return { apiKey: "token" };
    });
    expect(await run("upstream_report", ARGS, one.host())).toMatchObject({ kind: "input" });
    vi.setSystemTime(Date.now() + HOUR);
    revoked = true;
    answerMore(one.tables);
    expect(await run("upstream_report", ARGS, one.host())).toEqual({
      kind: "failed",
      permanent: true,
      message: "This task can no longer act for the caller who started it: the grant g1 was revoked. Start it again.",
    });
    expect(seen.map(({ page }) => page)).toEqual(["/page/1"]);
  });
});
