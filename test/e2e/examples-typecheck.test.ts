// Each example as a user copies it passes its own `npm run typecheck` (`wrangler types && tsc --noEmit`)
// with the package installed from the tarball: the package's sources type against the bindings they
// read (docs/api.md, "Bindings and settings"), never against the consumer's generated `Env`, which
// names only what that Worker binds (an adopter binds no SESSIONS, STEPS or WEBHOOKS).
import { join, resolve } from "node:path";
import { describe, it } from "vitest";
import { installedExample } from "./support/adopter";
import { run } from "./support/fresh-clone";
import { EXAMPLES } from "./support/install-examples";

const BIN = resolve(import.meta.dirname, "../../node_modules/.bin");

describe.each(EXAMPLES)("%s, installed from the tarball", (example) => {
  it("passes `wrangler types && tsc --noEmit` with its own tsconfig", async ({ expect }) => {
    const dir = await installedExample(example);
    for (const [tool, args] of [
      ["wrangler", ["types"]],
      ["tsc", ["--noEmit"]],
    ] as const) {
      const command = run(dir, join(BIN, tool), [...args]);
      expect(await command.exited, `${tool} ${args.join(" ")} in ${dir}:\n${command.output()}`).toBe(0);
    }
  });
});
