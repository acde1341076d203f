// The upgrade an operator makes (issue 53): release 0.1.0 serves alice's and bob's work in flight (a
// countdown with a webhook, a batch mid-step, a fan-out, an external job sleeping durably, a deploy
// and a Workflow's publish_report waiting for a person), is stopped with SIGTERM or SIGKILL, and this release starts on the same
// state. Every task ends as its tool says, once; principals keep their tasks; the webhook 0.1
// registered is served; a task this release creates on an id 0.1 prepared is a task of schema 2.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, it, vi, type ExpectStatic } from "vitest";
import { YES } from "./support/hitl";
import { YES as PUBLISH } from "./support/workflows";
import { storedVersions, taskObjectFiles, unpackPreviousRelease } from "./support/previous-release";
import { eventLog, getTask, startTask, taskResponse, type LoggedEvent, type TaskDoc } from "./support/tasks";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver";
import { failWithLogs, startDevServer, type DevServer } from "./support/wrangler-dev";
import { until } from "../until";

const SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const ALICE = { Authorization: `Bearer alice-${crypto.randomUUID()}` };
const BOB = { Authorization: `Bearer bob-${crypto.randomUUID()}` };
const token = (headers: { Authorization: string }) => headers.Authorization.slice("Bearer ".length);
const VARS = {
  API_KEYS: `alice:${token(ALICE)},bob:${token(BOB)}`,
  WEBHOOK_SECRET: SECRET,
  WEBHOOK_ALLOW_LOOPBACK: "true",
  // As `npm run dev` sets it: the local Workflows engine leaves a running instance stalled after a stop.
  WORKFLOW_NUDGE: "true",
  WORKFLOW_CHECK_SECONDS: "2",
};

let previousConfig = "";
let receiver: WebhookReceiver;

beforeAll(async () => {
  previousConfig = unpackPreviousRelease();
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

interface Work {
  countdown: string;
  batch: string;
  fanOut: string;
  external: string;
  deploy: string;
  publish: string;
}

/** Starts the work in flight on `url`: alice's and bob's, one task of each kind. */
async function startWork(url: string, hookPath: string): Promise<Work> {
  const webhook = { "mcp-task-worker/webhook": { url: `${receiver.url}${hookPath}` } };
  return {
    countdown: await startTask(url, "countdown", { seconds: 40 }, ALICE, webhook),
    batch: await startTask(url, "batch_process", { items: 8, secondsPerItem: 2 }, ALICE),
    fanOut: await startTask(url, "batch_process", { items: 3, secondsPerItem: 5, parallel: true }, BOB),
    external: await startTask(url, "external_job", { durationSeconds: 30, pollSeconds: 30 }, BOB),
    deploy: await startTask(url, "deploy", { service: "api", version: "v7" }, ALICE),
    publish: await startTask(url, "publish_report", { pages: 2 }, BOB),
  };
}

const headersOf = (work: Work, id: string) =>
  id === work.fanOut || id === work.external || id === work.publish ? BOB : ALICE;

/** Waits until `check` passes on the task's document. */
async function waitFor(server: DevServer, url: string, id: string, work: Work, check: (doc: TaskDoc) => void) {
  await vi
    .waitFor(async () => check(await getTask(url, id, headersOf(work, id))), until(200))
    .catch((error: unknown) => failWithLogs(server, error));
}

const ofEvent = (log: LoggedEvent[], event: string) => log.filter((e) => e.event === event);

async function rehearse(stop: "SIGTERM" | "SIGKILL", expect: ExpectStatic) {
  const stateDir = mkdtempSync(join(tmpdir(), "mcp-task-worker-upgrade-"));
  const hookPath = `/${stop}`;
  try {
    const previous = await startDevServer({ config: previousConfig, stateDir, vars: VARS, startTimeoutMs: 120_000 });
    let work: Work;
    try {
      work = await startWork(previous.url, hookPath);
      // Each well into its work: running, sleeping durably, waiting for a person.
      await waitFor(previous, previous.url, work.countdown, work, (doc) =>
        expect(doc.progress?.progress ?? 0).toBeGreaterThanOrEqual(3),
      );
      await waitFor(previous, previous.url, work.batch, work, (doc) =>
        expect(doc.progress?.progress ?? 0).toBeGreaterThanOrEqual(1),
      );
      await waitFor(previous, previous.url, work.external, work, (doc) =>
        expect(doc.statusMessage).toMatch(/^Waiting until/),
      );
      for (const id of [work.deploy, work.publish])
        await waitFor(previous, previous.url, id, work, (doc) => expect(doc.status).toBe("input_required"));
    } finally {
      if (stop === "SIGKILL") await previous.kill();
      else await previous.stop();
    }
    const preparedBefore = new Set(taskObjectFiles(stateDir));

    const next = await startDevServer({ stateDir, vars: VARS });
    let created = "";
    try {
      const { url } = next;
      const answers = [
        [work.deploy, ALICE, { confirm: YES }],
        [work.publish, BOB, { publish: PUBLISH }],
      ] as const;
      for (const [id, headers, body] of answers) {
        const answer = await fetch(`${url}/tasks/${id}/input`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(answer.status).toBe(200);
      }
      for (const id of Object.values(work))
        await waitFor(next, url, id, work, (doc) => expect(doc.status).toBe("completed"));

      const results = Object.fromEntries(
        await Promise.all(
          Object.entries(work).map(async ([name, id]) => [name, await getTask(url, id, headersOf(work, id))] as const),
        ),
      );
      expect(JSON.stringify(results["countdown"]?.result)).toMatch(/Countdown of 40 s finished\./);
      expect(results["batch"]?.result).toMatchObject({ structuredContent: { items: 8, checksum: 204 } });
      expect(results["fanOut"]?.result).toMatchObject({ structuredContent: { items: 3, checksum: 14 } });
      expect(results["external"]?.result).toMatchObject({ structuredContent: { polls: expect.any(Number) } });
      expect(JSON.stringify(results["deploy"]?.result)).toMatch(/Deployed api v7/);
      expect(JSON.stringify(results["publish"]?.result)).toMatch(/Published a report of 2 pages\./);

      // Once each: one result, each step and progress value once.
      for (const id of Object.values(work)) {
        const log = await eventLog(url, id, headersOf(work, id));
        expect(ofEvent(log, "result")).toHaveLength(1);
        const steps = ofEvent(log, "step").map((e) => String(e.data["name"]));
        expect(steps).toEqual([...new Set(steps)]);
        const progress = ofEvent(log, "progress").map((e) => Number(e.data["progress"]));
        expect(progress).toEqual([...new Set(progress)].sort((a, b) => a - b));
      }
      const batchSteps = ofEvent(await eventLog(url, work.batch, ALICE), "step").map((e) => e.data["name"]);
      expect(batchSteps).toEqual(["item-1", "item-2", "item-3", "item-4", "item-5", "item-6", "item-7", "item-8"]);
      const publishSteps = ofEvent(await eventLog(url, work.publish, BOB), "step").map((e) => e.data["name"]);
      expect(publishSteps).toEqual(["page 1", "page 2", "publish"]);

      // Principals keep their tasks, and only theirs.
      expect((await taskResponse(url, work.countdown, BOB)).status).toBe(404);
      expect((await taskResponse(url, work.fanOut, ALICE)).status).toBe(404);

      // The webhook registered under 0.1 is served, signed with the same secret.
      await vi
        .waitFor(() => {
          const done = receiver.received.filter((h) => h.path === hookPath && h.body.includes('"task.completed"'));
          expect(done).toHaveLength(1);
          for (const hook of done) expect(() => new Webhook(SECRET).verify(hook.body, hook.headers)).not.toThrow();
        }, until(200))
        .catch((error: unknown) => failWithLogs(next, error));

      // A new task of alice's, on an id her pool prepared (0.1 filled it after her creations).
      created = await startTask(url, "countdown", { seconds: 1 }, ALICE);
      await waitFor(next, url, created, work, (doc) => expect(doc.status).toBe("completed"));
    } finally {
      await next.stop();
    }
    const fresh = storedVersions(stateDir, created);
    expect(fresh).toMatchObject({ schema: 2, firstSchema: 2 });
    expect(preparedBefore.has(fresh.file)).toBe(true);
    expect(storedVersions(stateDir, work.countdown)).toMatchObject({ schema: 2, firstSchema: 1 });
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

describe("an upgrade from 0.1.0 with work in flight", () => {
  it("after SIGTERM: every task ends as its tool says, once", async ({ expect }) => rehearse("SIGTERM", expect));
  it("after SIGKILL: every task ends as its tool says, once", async ({ expect }) => rehearse("SIGKILL", expect));
});
