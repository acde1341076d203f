// .dev.vars.example as a newcomer uses it: every docs/ page it names exists, and copying it with
// the one change its comment asks for (a name and token of your own in place of the placeholder)
// gives a working local server. (Issue 32 point 14: the link was dead, and the copy answered 503.)
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "vitest";
import { ownServer } from "./support/dev-server";

const ROOT = resolve(import.meta.dirname, "../..");
const example = readFileSync(join(ROOT, ".dev.vars.example"), "utf8");
const INSTRUCTION = "After copying, replace <name>:<token> with yours, e.g. alice:<output of openssl rand -hex 32>.";
const token = randomBytes(32).toString("hex");

/** The copy, with exactly the change the instruction names. */
const copied = join(mkdtempSync(join(tmpdir(), "dev-vars-")), ".dev.vars");
writeFileSync(copied, example.replace(/^API_KEYS=<name>:<token>$/m, `API_KEYS=alice:${token}`));
const server = ownServer({ envFile: copied });

describe(".dev.vars.example", () => {
  it("names only docs pages that exist", ({ expect }) => {
    const pages = [...example.matchAll(/docs\/[\w./-]+\.md/g)].map((match) => match[0]);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(existsSync(join(ROOT, page)), page).toBe(true);
  });

  it("says in one line what to change, and with that change the local server works", async ({ expect }) => {
    expect(example.split("\n")).toContain(`# ${INSTRUCTION}`);
    const listed = await fetch(`${server.url}/tasks`, { headers: { Authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);
    expect((await fetch(`${server.url}/tasks`)).status).toBe(401);
  });
});
