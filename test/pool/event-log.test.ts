// The EventLogObject inside workerd: occurrences once per eventId and in order, cursors and gaps
// past retention, webhook subscriptions (verification, quota, deliveries, retries to suspension, a
// refresh that resumes and rotates the secret, 410 and 413) with fetch stubbed: nothing leaves.
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { EventLogObject } from "../../src/events/event-log-object";
import { decodeCursor, encodeCursor } from "../../src/events/cursor";
import { RETRY_DELAYS_MS } from "../../src/events/webhook-deliveries";

const SECRET = `whsec_${btoa("0123456789abcdef01234567")}`;
const OTHER_SECRET = `whsec_${btoa("76543210fedcba9876543210")}`;
const URL_ = "https://receiver.test/hook?k=1";

interface Post {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}
let posts: Post[] = [];
/** The status the stub answers deliveries with (challenges are always echoed unless `echo` is off). */
let answer = 204;
let echo = true;

beforeEach(() => {
  posts = [];
  answer = 204;
  echo = true;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body: Record<string, unknown> = JSON.parse(String(init?.body));
    posts.push({ url: String(input), headers: new Headers(init?.headers), body });
    if (body["type"] === "verification")
      return echo ? Response.json({ challenge: body["challenge"] }) : new Response("nope", { status: 200 });
    return new Response(null, { status: answer });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const log = () => env.EVENTS.getByName(`test-${crypto.randomUUID()}`);
const occurrence = (n: number, at = Date.now(), taskId = "t1") => ({
  eventId: `e${n}`,
  name: "task.status",
  at,
  data: { taskId, tool: "countdown", status: "working", lastUpdatedAt: new Date(at).toISOString() },
});
const read = (stub: ReturnType<typeof log>, after: string | null, extra: Record<string, unknown> = {}) =>
  stub.read({
    name: "task.status",
    principal: "alice",
    args: {},
    after: decodeCursor(after),
    maxEvents: 100,
    ...extra,
  });
const subscribeInput = (overrides: Record<string, unknown> = {}) => ({
  id: "sub_test",
  principal: "alice",
  name: "task.status",
  args: "{}",
  url: URL_,
  secret: SECRET,
  after: null,
  expiresAt: Date.now() + 3600_000,
  maxSubscriptions: 2,
  ...overrides,
});
const deliveries = () => posts.filter((post) => post.body["eventId"] !== undefined);

/** Makes the subscription's next retry due now (the schedule's waits are the object's to keep). */
const dueNow = (stub: ReturnType<typeof log>) =>
  runInDurableObject(stub, (_object: EventLogObject, state: DurableObjectState) => {
    state.storage.sql.exec("UPDATE subscriptions SET next_at = 0");
  });

describe("occurrences", () => {
  it("keeps one occurrence per eventId, in order, and a null cursor starts at now", async ({ expect }) => {
    const stub = log();
    expect(await stub.append([occurrence(1), occurrence(2)])).toBe(2);
    expect(await stub.append([occurrence(2), occurrence(3)])).toBe(1);
    const now = await read(stub, null);
    expect(now.events).toEqual([]);
    const all = await read(stub, now.cursor.replace(/\.\d+$/, ".0"));
    expect(all.events.map((event) => event.eventId)).toEqual(["e1", "e2", "e3"]);
    const replay = await read(stub, null, { maxAgeMs: 60_000 });
    expect(replay.events).toHaveLength(3);
  });

  it("says truncated for a cursor behind what retention kept, and for a cursor of another life of the log", async ({
    expect,
  }) => {
    const stub = log();
    const old = Date.now() - 3 * 24 * 3600_000;
    await stub.append([occurrence(1, old), occurrence(2, old), occurrence(3)]);
    const start = await read(stub, null);
    const first = encodeCursor({ epoch: decodeCursor(start.cursor)?.epoch ?? "", seq: 0 });
    await runDurableObjectAlarm(stub);
    const after = await read(stub, first);
    expect(after.truncated).toBe(true);
    expect(after.events.map((event) => event.eventId)).toEqual(["e3"]);
    const foreign = await read(stub, "0123456789abcdef.1");
    expect(foreign).toMatchObject({ truncated: true, events: [] });
  });
});

describe("webhook subscriptions", () => {
  it("verifies the callback before storing, refuses one that does not echo, and keeps the quota", async ({
    expect,
  }) => {
    const stub = log();
    echo = false;
    expect(await stub.subscribe(subscribeInput())).toEqual({ kind: "callback_failed", reason: "challenge_failed" });
    echo = true;
    expect(await stub.subscribe(subscribeInput())).toMatchObject({ kind: "subscribed", id: "sub_test" });
    const challenge = posts.find((post) => post.body["type"] === "verification");
    expect(challenge?.url).toBe(URL_);
    expect(challenge?.headers.get("x-mcp-subscription-id")).toBe("sub_test");
    expect(await stub.subscribe(subscribeInput({ id: "sub_2" }))).toMatchObject({ kind: "subscribed" });
    expect(await stub.subscribe(subscribeInput({ id: "sub_3" }))).toEqual({ kind: "exhausted", limit: 2 });
    // Another principal's quota is its own.
    expect(await stub.subscribe(subscribeInput({ id: "sub_4", principal: "bob" }))).toMatchObject({
      kind: "subscribed",
    });
  });

  it("delivers in order, signed, to the URL as given; retries, suspends after the last retry, and a refresh resumes with a rotated secret", async ({
    expect,
  }) => {
    const stub = log();
    await stub.subscribe(subscribeInput());
    await stub.append([occurrence(1), occurrence(2)]);
    await runDurableObjectAlarm(stub);
    expect(deliveries().map((post) => post.body["eventId"])).toEqual(["e1", "e2"]);
    for (const post of deliveries()) {
      expect(post.url).toBe(URL_);
      expect(post.headers.get("webhook-id")).toBe(post.body["eventId"]);
      expect(post.headers.get("webhook-signature")).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(post.headers.get("x-mcp-subscription-id")).toBe("sub_test");
    }
    answer = 503;
    await stub.append([occurrence(3)]);
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      await dueNow(stub);
      await runDurableObjectAlarm(stub);
    }
    const failing = deliveries().filter((post) => post.body["eventId"] === "e3");
    expect(failing).toHaveLength(RETRY_DELAYS_MS.length + 1);
    const suspended = await stub.subscribe(subscribeInput({ secret: OTHER_SECRET }));
    // The refresh itself resumes it: the status it reports is the resumed one.
    expect(suspended).toMatchObject({ kind: "subscribed", deliveryStatus: { active: true } });
    answer = 204;
    await runDurableObjectAlarm(stub);
    const resent = deliveries()
      .filter((post) => post.body["eventId"] === "e3")
      .at(-1);
    // Signed with both secrets while the old one is rotated out.
    expect(resent?.headers.get("webhook-signature")?.split(" ")).toHaveLength(2);
  });

  it("reports a suspended subscription's failure by category only", async ({ expect }) => {
    const stub = log();
    await stub.subscribe(subscribeInput({ id: "sub_x" }));
    answer = 500;
    await stub.append([occurrence(1)]);
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      await dueNow(stub);
      await runDurableObjectAlarm(stub);
    }
    const status = await runInDurableObject(stub, (_object: EventLogObject, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ active: number; last_error: string; failed_since: number | null }>(
          "SELECT active, last_error, failed_since FROM subscriptions",
        )
        .one(),
    );
    expect(status).toMatchObject({ active: 0, last_error: "http_5xx" });
    expect(status.failed_since).toBeGreaterThan(0);
  });

  it("ends a subscription whose receiver answers 410, and skips an occurrence answered 413", async ({ expect }) => {
    const stub = log();
    await stub.subscribe(subscribeInput());
    answer = 413;
    await stub.append([occurrence(1)]);
    await runDurableObjectAlarm(stub);
    answer = 204;
    await stub.append([occurrence(2)]);
    await runDurableObjectAlarm(stub);
    expect(deliveries().map((post) => post.body["eventId"])).toEqual(["e1", "e2"]);
    answer = 410;
    await stub.append([occurrence(3)]);
    await runDurableObjectAlarm(stub);
    answer = 204;
    await stub.append([occurrence(4)]);
    await runDurableObjectAlarm(stub);
    expect(deliveries().map((post) => post.body["eventId"])).toEqual(["e1", "e2", "e3"]);
    expect(await stub.unsubscribe("sub_test", "alice")).toBe(false);
  });

  it("tells a subscriber with a signed gap body when what it had not yet received was pruned, then goes on", async ({
    expect,
  }) => {
    const stub = log();
    await stub.subscribe(subscribeInput());
    // e1 is older than the retention window: the alarm prunes it before it could be delivered.
    await stub.append([occurrence(1, Date.now() - 3 * 24 * 3600_000), occurrence(2)]);
    await runDurableObjectAlarm(stub);
    const [gap, next] = posts.filter((post) => post.body["type"] !== "verification");
    expect(gap?.body).toMatchObject({ type: "gap", cursor: expect.stringMatching(/^[0-9a-f]{16}\.1$/) });
    expect(gap?.headers.get("webhook-id")).toMatch(/^msg_gap_/);
    expect(gap?.headers.get("webhook-signature")).toMatch(/^v1,/);
    expect(next?.body["eventId"]).toBe("e2");
  });

  it("lets only its principal remove a subscription, and stops an expired one", async ({ expect }) => {
    const stub = log();
    await stub.subscribe(subscribeInput({ expiresAt: Date.now() - 1 }));
    expect(await stub.unsubscribe("sub_test", "bob")).toBe(false);
    await stub.append([occurrence(1)]);
    await runDurableObjectAlarm(stub);
    expect(deliveries()).toEqual([]);
    expect(await stub.unsubscribe("sub_test", "alice")).toBe(false);
  });
});
