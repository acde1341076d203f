/**
 * The package as a stranger installs it: `npm pack` of this checkout (test/support/package-tarball.ts)
 * into a fresh folder holding only a minimal Worker of its own (test/fixtures/consumer: package.json,
 * wrangler.toml with the bindings docs/api.md lists, src/index.ts with one tool, no @types/node). It
 * installs, type-checks, bundles with `wrangler deploy --dry-run`, and `wrangler dev` serves a
 * task-augmented call to its end in both eras (issue 42: the template's engine, published).
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describeConsumer } from "./support/package-consumer";

const FIXTURE = resolve(import.meta.dirname, "../fixtures/consumer");

describeConsumer({
  title: "a Worker built on the packed package",
  layOut(dir, tarball) {
    cpSync(FIXTURE, dir, { recursive: true });
    const manifest = join(dir, "package.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("PACKAGE_TARBALL", tarball));
  },
  toolchain: "checkout",
  nodeTypes: false,
  call: { name: "countdown", arguments: { seconds: 2 }, text: "Countdown of 2 s finished." },
});
