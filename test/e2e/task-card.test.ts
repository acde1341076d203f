/**
 * The task card (an MCP App) against a real wrangler dev: its contract on the wire (listing
 * `_meta.ui`, the `ui://` resource, app-only tools, the task as data in `_meta`), and the
 * card itself in headless Chromium inside a test host built on the ext-apps host SDK, its
 * tool calls proxied to the server by the SDK's Client.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Browser, FrameLocator } from "playwright-core";
import { sharedServer } from "./support/dev-server";
import { ONE_SECOND_VARS } from "./support/server-settings";
import { connectClient } from "./support/mcp";
import { launchBrowser } from "./support/browser";
import { startAppHost, type AppCsp, type AppHost, type CallToolParams } from "./support/app-host";
import { until } from "../until";

const CARD_URI = "ui://mcp-task-worker/task-card.html";
const APP_MIME = "text/html;profile=mcp-app";
const settle = until(250);

// check-back's 1 s inline wait, card a principal of its own (support/server-settings.ts).
const server = sharedServer(ONE_SECOND_VARS);
let client: Client;

beforeAll(async () => {
  // A short inline budget: a plain call of a long tool falls back to the task link within a second.
  client = await connectClient(server.url, { headers: { Authorization: "Bearer card-token" } });
});

afterAll(async () => {
  await client?.close();
});

type Data = Record<string, unknown>;
const call = async (name: string, args: Data): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: 60_000 })) as CallToolResult;
/** The task as data for the card: `_meta` of the fallback and check-back tools, task_activity's structuredContent. */
const isData = (value: unknown): value is Data => typeof value === "object" && value !== null && !Array.isArray(value);
const data = (result: CallToolResult): Data => {
  const task = result._meta?.["mcp-task-worker/task"];
  return isData(task) ? task : (result.structuredContent ?? {});
};
const taskIdOf = (result: CallToolResult): string => {
  const taskId = data(result)["taskId"];
  if (typeof taskId !== "string") throw new Error(`no taskId in ${JSON.stringify(result)}`);
  return taskId;
};

describe("the task card on the wire", () => {
  it("task-capable tools name the card in _meta.ui.resourceUri; quick ones do not", async ({ expect }) => {
    const { tools } = await client.listTools();
    // The nested form, and the flat one (deprecated) that older hosts read.
    for (const name of ["countdown", "batch_process"])
      expect(tools.find((t) => t.name === name)?._meta, name).toEqual({
        ui: { resourceUri: CARD_URI },
        "ui/resourceUri": CARD_URI,
      });
    expect(tools.find((t) => t.name === "echo")?._meta?.["ui"]).toBeUndefined();
  });

  it("task_activity is for the app only; the check-back tools stay visible to the model", async ({ expect }) => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "task_activity")?._meta).toEqual({ ui: { visibility: ["app"] } });
    for (const name of ["task_status", "task_result", "task_cancel"]) {
      const visibility = (tools.find((t) => t.name === name)?._meta?.["ui"] as { visibility?: string[] } | undefined)
        ?.visibility;
      expect(visibility === undefined || visibility.includes("model"), name).toBe(true);
    }
  });

  it("resources/read of the card is one self-contained HTML document, with a CSP that needs no origin", async ({
    expect,
  }) => {
    const { contents } = await client.readResource({ uri: CARD_URI });
    expect(contents).toHaveLength(1);
    const [card] = contents;
    expect(card).toMatchObject({ uri: CARD_URI, mimeType: APP_MIME });
    const html = card && "text" in card ? card.text : "";
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain("<script>");
    expect(html).not.toMatch(/<script[^>]+src=|<link\b|@import/i);
    expect(card?._meta).toEqual({
      ui: {
        csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
        prefersBorder: true,
      },
    });
  });

  it("resources/list names the card", async ({ expect }) => {
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === CARD_URI)).toMatchObject({ mimeType: APP_MIME, name: "task-card" });
  });

  it("the still-running fallback carries the task as data for the card in _meta, and the model's sentences in structuredContent", async ({
    expect,
  }) => {
    const fallback = await call("countdown", { seconds: 30 });
    const taskId = taskIdOf(fallback);
    expect(fallback.content.find((c) => c.type === "text")?.text).toMatch(/^Still running/);
    expect(fallback.structuredContent).toMatchObject({
      summary: expect.stringMatching(/^Still running/),
      next: expect.stringContaining("task_result"),
      taskId,
      status: "working",
    });
    expect(fallback.structuredContent).not.toHaveProperty("pollInterval");
    expect(data(fallback)).toMatchObject({
      taskId,
      tool: "countdown",
      status: "working",
      progress: expect.any(Number),
      message: expect.any(String),
      pollInterval: expect.any(Number),
    });
    // Once the job reports progress, the data carries it flat: progress, total and the message.
    await vi.waitFor(
      async () =>
        expect(data(await call("task_status", { taskId }))).toMatchObject({
          progress: expect.any(Number),
          total: 30,
          message: expect.stringMatching(/s left$/),
        }),
      settle,
    );
    await call("task_cancel", { taskId });
  });

  it("task_status, task_result and task_cancel return the task as data in _meta; task_result adds the result once done", async ({
    expect,
  }) => {
    const taskId = taskIdOf(await call("batch_process", { items: 2, secondsPerItem: 1 }));
    const status = await call("task_status", { taskId });
    expect(status.content[0]?.type).toBe("text");
    expect(data(status)).toMatchObject({ taskId, status: "working", tool: "batch_process" });
    await vi.waitFor(
      async () => expect(data(await call("task_status", { taskId }))["status"]).toBe("completed"),
      settle,
    );
    const done = await call("task_result", { taskId });
    expect(done.content).toEqual([{ type: "text", text: "Processed 2 items." }]);
    expect(data(done)).toMatchObject({
      taskId,
      status: "completed",
      progress: 2,
      total: 2,
      result: {
        content: [{ type: "text", text: "Processed 2 items." }],
        structuredContent: { summary: "Processed 2 items.", items: 2, checksum: 5 },
      },
    });
    // The model reads the tool's own words and data in structuredContent.
    expect(done.structuredContent).toEqual({
      summary: "Processed 2 items.",
      taskId,
      tool: "batch_process",
      status: "completed",
      progress: 2,
      total: 2,
      message: "item 2 of 2 done",
      result: { items: 2, checksum: 5 },
    });

    const running = taskIdOf(await call("countdown", { seconds: 60 }));
    expect(data(await call("task_cancel", { taskId: running }))).toMatchObject({
      taskId: running,
      status: "cancelled",
    });
  });

  it("task_activity returns the finished steps after a cursor, and only what is new after it", async ({ expect }) => {
    const taskId = taskIdOf(await call("batch_process", { items: 3, secondsPerItem: 0.5 }));
    await vi.waitFor(
      async () => expect(data(await call("task_status", { taskId }))["status"]).toBe("completed"),
      settle,
    );
    const all = data(await call("task_activity", { taskId }));
    expect(all).toMatchObject({
      taskId,
      status: "completed",
      more: false,
      steps: [{ name: "item-1" }, { name: "item-2" }, { name: "item-3" }],
    });
    const again = data(await call("task_activity", { taskId, after: all["cursor"] }));
    expect(again).toMatchObject({ steps: [], logs: [], cursor: all["cursor"] });
    await expect(client.callTool({ name: "task_activity", arguments: { taskId, after: -1 } })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe("the task card in a host page", () => {
  let browser: Browser;
  let host: AppHost;
  /** Per-view replacements of the server's answers (the question form has no server side yet). */
  const overrides = new Map<
    string,
    (params: CallToolParams, forward: () => Promise<CallToolResult>) => Promise<CallToolResult>
  >();

  beforeAll(async () => {
    const { contents } = await client.readResource({ uri: CARD_URI });
    const [card] = contents;
    const html = card && "text" in card ? card.text : "";
    const csp = ((card?._meta?.["ui"] as { csp?: AppCsp } | undefined)?.csp ?? {}) satisfies AppCsp;
    browser = await launchBrowser();
    host = await startAppHost(browser, { html, csp }, async (viewId, params) => {
      const forward = async () =>
        (await client.callTool(
          { name: params.name, arguments: params.arguments ?? {} },
          CallToolResultSchema,
        )) as CallToolResult;
      const override = overrides.get(viewId);
      return override ? override(params, forward) : forward();
    });
  });

  afterAll(async () => {
    await host?.close();
    await browser?.close();
  });

  /** What a chat client does: show the card, give it the call's input, make the call, give it the result. */
  async function callWithCard(
    viewId: string,
    name: string,
    args: Data,
    options: { theme?: "light" | "dark" } = {},
  ): Promise<{ view: FrameLocator; result: CallToolResult }> {
    const view = await host.mount({ id: viewId, toolName: name, ...(options.theme && { theme: options.theme }) });
    await host.input(viewId, args);
    const result = await call(name, args);
    await host.result(viewId, result);
    return { view, result };
  }

  const barValue = (view: FrameLocator) =>
    view.locator("progress").evaluate((bar: HTMLProgressElement) => (bar.hasAttribute("value") ? bar.value : -1));
  const statusOf = (view: FrameLocator) => view.locator("#card").getAttribute("data-status");

  it("follows a running countdown: the bar moves, and Cancel cancels the task on the server", async ({ expect }) => {
    const { view, result } = await callWithCard("countdown", "countdown", { seconds: 60 });
    const taskId = taskIdOf(result);
    await expect.poll(() => view.locator("#card").getAttribute("data-task-id"), settle).toBe(taskId);
    await expect.poll(() => view.locator(".tool").textContent(), settle).toBe("countdown");
    await expect.poll(() => view.locator(".arg").textContent(), settle).toBe("seconds60");
    const first = await barValue(view);
    await vi.waitFor(async () => expect(await barValue(view)).toBeGreaterThan(Math.max(first, 0)), settle);
    expect(await view.locator("progress").evaluate((bar: HTMLProgressElement) => bar.max)).toBe(60);
    expect(
      host.calls.some(
        (c) => c.viewId === "countdown" && c.name === "task_activity" && c.arguments["taskId"] === taskId,
      ),
    ).toBe(true);

    await view.locator('[data-action="cancel"]').click();
    await vi.waitFor(async () => expect(await statusOf(view)).toBe("cancelled"), settle);
    expect(data(await call("task_status", { taskId }))["status"]).toBe("cancelled");
    await expect.poll(() => view.locator('[data-action="cancel"]').isHidden(), settle).toBe(true);
    expect(host.problems).toEqual([]);
  });

  it("shows a finished task's result, its steps and its structured content as a table", async ({ expect }) => {
    const { view, result } = await callWithCard("batch", "batch_process", { items: 3, secondsPerItem: 1 });
    expect(data(result)["status"]).toBe("working"); // 3 s of work outlasts the 1 s inline budget
    await vi.waitFor(async () => expect(await statusOf(view)).toBe("completed"), settle);
    await expect.poll(() => view.locator(".result-text").textContent(), settle).toBe("Processed 3 items.");
    expect(await view.locator("table[data-role=structured] tr").allTextContents()).toEqual(["items3", "checksum14"]);
    expect(await view.locator("#steps li").allTextContents()).toEqual(["item-1", "item-2", "item-3"]);
    expect(await view.locator("#step-count").textContent()).toBe("3 finished");
    expect(await view.locator("progress").evaluate((bar: HTMLProgressElement) => bar.value / bar.max)).toBe(1);
  });

  it("shows a result that arrived whole, with the steps of the task it came from", async ({ expect }) => {
    const view = await host.mount({ id: "inline", toolName: "batch_process" });
    await host.input("inline", { items: 2, secondsPerItem: 0 });
    // The final result as a plain call returns it when the job ends in time: the tool's result with related-task _meta.
    const { task } = await client.request(
      { method: "tools/call", params: { name: "batch_process", arguments: { items: 2, secondsPerItem: 0 }, task: {} } },
      CreateTaskResultSchema,
    );
    const final = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await host.result("inline", final);
    await expect.poll(() => view.locator(".result-text").textContent(), settle).toBe("Processed 2 items.");
    expect(await statusOf(view)).toBe("completed");
    await expect.poll(() => view.locator("#steps li").allTextContents(), settle).toEqual(["item-1", "item-2"]);
    expect(await view.locator("table[data-role=structured] tr").allTextContents()).toEqual(["items2", "checksum5"]);
  });

  it("renders a pending question as a form and sends the answer through a tool, as inputResponses", async ({
    expect,
  }) => {
    const answers: Data[] = [];
    let asked = true;
    overrides.set("question", async (params, forward) => {
      if (params.name === "task_input") {
        answers.push(params.arguments ?? {});
        asked = false;
        return { content: [{ type: "text", text: "Answer received." }] };
      }
      const real = await forward();
      if (params.name !== "task_activity" || !asked) return real;
      // What issue 13's server will say while the job waits: input_required with inputRequests, and a log line.
      return {
        ...real,
        structuredContent: {
          ...real.structuredContent,
          status: "input_required",
          inputRequests: {
            "confirm-deploy": {
              method: "elicitation/create",
              params: {
                message: "Deploy web 1.2.0 to production?",
                requestedSchema: {
                  type: "object",
                  properties: {
                    confirm: { type: "boolean", title: "Confirm" },
                    note: { type: "string", title: "Note" },
                  },
                  required: ["confirm"],
                },
              },
            },
          },
          logs: [{ level: "info", message: "Plan ready: 3 regions.", at: new Date().toISOString() }],
        },
      };
    });
    const { view, result } = await callWithCard("question", "countdown", { seconds: 30 });
    const taskId = taskIdOf(result);
    await expect.poll(() => view.locator("#question p").textContent(), settle).toBe("Deploy web 1.2.0 to production?");
    expect(await statusOf(view)).toBe("input_required");
    await expect
      .poll(() => view.locator("#logs li .text").first().textContent(), settle)
      .toBe("Plan ready: 3 regions.");
    await view.locator('#question input[name="confirm"]').check();
    await view.locator('#question input[name="note"]').fill("ship it");
    await view.locator('#question [data-action="accept"]').click();
    await vi.waitFor(
      () =>
        expect(answers).toEqual([
          {
            taskId,
            inputResponses: { "confirm-deploy": { action: "accept", content: { confirm: true, note: "ship it" } } },
          },
        ]),
      settle,
    );
    await expect.poll(() => view.locator("#question").isHidden(), settle).toBe(true);
    await expect.poll(() => statusOf(view), settle).toBe("working");
    await call("task_cancel", { taskId });
  });

  it("follows the host's theme and style variables", async ({ expect }) => {
    const view = await host.mount({
      id: "dark",
      toolName: "countdown",
      theme: "dark",
      styleVariables: { "--color-text-info": "rgb(1, 2, 3)" },
    });
    await expect.poll(() => view.locator("html").getAttribute("data-theme"), settle).toBe("dark");
    expect(await view.locator(".dot").evaluate((dot) => getComputedStyle(dot).backgroundColor)).toBe("rgb(1, 2, 3)");
  });

  it("follows a theme change the host sends later (ui/notifications/host-context-changed)", async ({ expect }) => {
    const view = await host.mount({ id: "retheme", toolName: "countdown", theme: "light" });
    await expect.poll(() => view.locator("html").getAttribute("data-theme"), settle).toBe("light");
    await host.theme("retheme", "dark");
    await expect.poll(() => view.locator("html").getAttribute("data-theme"), settle).toBe("dark");
  });

  it("tells the host its height (ui/notifications/size-changed), so the iframe fits the card", async ({ expect }) => {
    const { view, result } = await callWithCard("size", "countdown", { seconds: 30 });
    await expect.poll(() => view.locator("#card").getAttribute("data-task-id"), settle).toBe(taskIdOf(result));
    const iframeHeight = () =>
      host.page.locator('iframe[data-view="size"]').evaluate((frame: HTMLIFrameElement) => frame.style.height);
    const cardHeight = () =>
      view.locator("html").evaluate((root) => `${Math.ceil(root.getBoundingClientRect().height)}px`);
    // In view, as a card a person looks at is: Chromium throttles rendering (animation frames, resize
    // observers) in cross-origin iframes outside the viewport, and the views mounted before this one
    // push it below the fold.
    await host.page.locator('iframe[data-view="size"]').scrollIntoViewIfNeeded();
    await vi.waitFor(async () => expect(await iframeHeight()).toBe(await cardHeight()), settle);
    expect(Number.parseInt(await iframeHeight(), 10)).toBeGreaterThan(120); // the host's default height
    await call("task_cancel", { taskId: taskIdOf(result) });
  });

  it("in a host that cannot proxy tool calls, says it cannot follow the task and offers no Cancel", async ({
    expect,
  }) => {
    const view = await host.mount({ id: "no-tools", toolName: "countdown", noServerTools: true });
    await host.input("no-tools", { seconds: 30 });
    const result = await call("countdown", { seconds: 30 });
    await host.result("no-tools", result);
    await expect
      .poll(() => view.locator("#notice").textContent(), settle)
      .toMatch(/does not let the card call the server/);
    expect(await view.locator('[data-action="cancel"]').isHidden()).toBe(true);
    expect(host.calls.filter((c) => c.viewId === "no-tools")).toEqual([]);
    await call("task_cancel", { taskId: taskIdOf(result) });
  });

  it("answers the host's ui/resource-teardown", async ({ expect }) => {
    const { result } = await callWithCard("teardown", "countdown", { seconds: 30 });
    await vi.waitFor(
      () => expect(host.calls.some((c) => c.viewId === "teardown" && c.name === "task_activity")).toBe(true),
      settle,
    );
    // The bridge's request rejects if the view does not answer (or answers with an error).
    await expect(host.teardown("teardown")).resolves.toBeUndefined();
    await call("task_cancel", { taskId: taskIdOf(result) });
  });

  it("stops asking the server once the task has ended", async ({ expect }) => {
    const callsOf = (viewId: string) => host.calls.filter((c) => c.viewId === viewId).length;
    const finished = await callWithCard("ended", "batch_process", { items: 2, secondsPerItem: 1 });
    await vi.waitFor(async () => expect(await statusOf(finished.view)).toBe("completed"), settle);
    const polls = callsOf("ended");
    // A window measured in another card's polls, not in wall time: while a second task runs to its
    // end and its card asks the server several times, the finished card asks nothing.
    const other = await callWithCard("after-ended", "batch_process", { items: 3, secondsPerItem: 1 });
    await vi.waitFor(async () => expect(await statusOf(other.view)).toBe("completed"), settle);
    expect(callsOf("after-ended")).toBeGreaterThanOrEqual(2);
    expect(callsOf("ended")).toBe(polls);
  });

  it("draws a running and a finished card for the README", async ({ expect }) => {
    const update = process.env["UPDATE_SCREENSHOTS"] === "1";
    const running = await callWithCard("shot-running", "countdown", { seconds: 24 });
    const finished = await callWithCard("shot-finished", "batch_process", { items: 4, secondsPerItem: 0.5 });
    // For the picture, a bar well under way; otherwise any progress will do.
    await vi.waitFor(async () => expect(await barValue(running.view)).toBeGreaterThanOrEqual(update ? 9 : 1), settle);
    await vi.waitFor(async () => expect(await statusOf(finished.view)).toBe("completed"), settle);
    if (update) {
      await host.page.evaluate(() => {
        for (const slot of document.querySelectorAll(".slot"))
          if (!slot.querySelector('[data-view^="shot-"]')) slot.remove();
      });
      const views = host.page.locator("#views");
      mkdirSync(resolve(import.meta.dirname, "../../docs"), { recursive: true });
      writeFileSync(
        resolve(import.meta.dirname, "../../docs/task-card.png"),
        await views.screenshot({ animations: "disabled" }),
      );
    }
    await call("task_cancel", { taskId: taskIdOf(running.result) });
  });
});
