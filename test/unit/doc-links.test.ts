// Every relative link in the README and the docs points at a file that exists and, when it names
// an anchor, at a heading of that file: moving a manual page or renaming a section breaks npm test.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const pages = [
  "README.md",
  "bench/JOURNAL.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The text a reader sees as prose: fenced blocks and inline code hold no links. */
const prose = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = (match[1] ?? "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Relative link targets, `[text](target)` and `![alt](target)`; web, mail and same-page anchors kept as they are. */
const links = (markdown: string): string[] =>
  [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map((match) => match[1] ?? "")
    .filter((target) => !/^[a-z]+:/i.test(target));

/** What is wrong with one link of `page`, or undefined when it resolves. */
function brokenLink(page: string, target: string): string | undefined {
  const [path = "", anchor] = target.split("#");
  const file = path === "" ? join(root, page) : resolve(dirname(join(root, page)), decodeURIComponent(path));
  if (!existsSync(file)) return `${page}: ${target} (no file ${relative(root, file)})`;
  if (anchor === undefined || !file.endsWith(".md")) return undefined;
  return anchors(readFileSync(file, "utf8")).has(anchor)
    ? undefined
    : `${page}: ${target} (no heading #${anchor} in ${relative(root, file)})`;
}

describe("links in the README and docs", () => {
  it("makes anchors the way GitHub does", ({ expect }) => {
    expect([
      ...anchors(
        "# A\n## Disk: where the fsyncs are\n### What it costs, measured with `perf`\n## A\n```\n# not a heading\n```",
      ),
    ]).toEqual(["a", "disk-where-the-fsyncs-are", "what-it-costs-measured-with-perf", "a-1"]);
  });

  it("finds prose links, not ones in code", ({ expect }) => {
    expect(
      links("See [a](a.md#x) and ![b](b.png), not `[c](c.md)` or\n```\n[d](d.md)\n```\n[e](https://e.example)"),
    ).toEqual(["a.md#x", "b.png"]);
  });

  it("resolves every relative link to an existing file and heading", ({ expect }) => {
    const broken = pages
      .flatMap((page) => links(readFileSync(join(root, page), "utf8")).map((target) => brokenLink(page, target)))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  it("reaches every docs page from the README", ({ expect }) => {
    const linked = new Set(links(readFileSync(join(root, "README.md"), "utf8")).map((target) => target.split("#")[0]));
    expect(pages.filter((page) => page.startsWith("docs/") && !linked.has(page))).toEqual([]);
  });

  it("keeps the README a front door", ({ expect }) => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
    expect(readme).toContain("npm test");
  });
});
