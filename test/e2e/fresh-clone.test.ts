/**
 * wrangler's own commands and `npm run dev -- --port N` on a fresh clone (no dist/ yet): the pages
 * the Worker imports are built by wrangler.toml's [build] step, [dev] holds the default address,
 * and flags override it.
 * (Issue 27: `wrangler dev` failed on the missing assets directory, `npm run dev -- --port` on a
 * port given twice.)
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { freePort } from "./support/wrangler-dev";
import { answers, freshClone, run, type FreshClone } from "./support/fresh-clone";

let clone: FreshClone;

beforeAll(() => {
  clone = freshClone();
});

afterAll(() => clone?.remove());

const pages = () => join(clone.dir, "dist/pages");

describe("a fresh clone", () => {
  it("has no built pages to start with", ({ expect }) => {
    expect(existsSync(pages())).toBe(false);
  });

  it("deploys (dry run) with `npm exec -- wrangler deploy`: the [build] step builds the pages first", async ({
    expect,
  }) => {
    const deploy = run(clone.dir, "npm", [
      "exec",
      "--",
      "wrangler",
      "deploy",
      "--dry-run",
      "--outdir",
      join(clone.dir, ".out"),
    ]);
    const code = await deploy.exited;
    expect(code, deploy.output()).toBe(0);
    expect(existsSync(join(pages(), "console.html"))).toBe(true);
    // The upload carries them as text modules beside the script.
    expect(readdirSync(join(clone.dir, ".out")).filter((name) => name.endsWith(".html")).length).toBe(2);
  });

  it("serves the console at / with `npm exec -- wrangler dev --port N`", async ({ expect }) => {
    rmSync(pages(), { recursive: true, force: true });
    const port = await freePort();
    const dev = run(clone.dir, "npm", [
      "exec",
      "--",
      "wrangler",
      "dev",
      "--port",
      String(port),
      "--inspector-port",
      String(await freePort()),
    ]);
    try {
      await answers(`http://127.0.0.1:${port}/health`, dev);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
    } finally {
      await dev.stop();
    }
  });

  it("listens on the port given to `npm run dev -- --port N` (wrangler.toml [dev] holds the default)", async ({
    expect,
  }) => {
    const port = await freePort();
    const dev = run(clone.dir, "npm", [
      "run",
      "dev",
      "--",
      "--port",
      String(port),
      "--inspector-port",
      String(await freePort()),
    ]);
    try {
      const health = await answers(`http://127.0.0.1:${port}/health`, dev);
      expect(await health.json()).toEqual({ ok: true });
      expect(dev.output()).not.toMatch(/expects a single value/);
    } finally {
      await dev.stop();
    }
  });
});
