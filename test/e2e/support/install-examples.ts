/**
 * The external suite's global setup: each example installed from the tarball once, before any file
 * starts (support/adopter.ts keeps the copies). Four files use them (adopt-create-mcp-handler,
 * adopt-mcp-agent, adopt-dual-lane, examples-installed); each ran its own `npm install` in its first
 * hook, all at once, and on a loaded machine two of those hooks outlasted their 120 s.
 */
import { installedExample } from "./adopter";

export const EXAMPLES = [
  "examples/create-mcp-handler",
  "examples/mcp-agent",
  "examples/dual-lane",
  "examples/sdk-v1-handler",
];

/** Tests' own adopters with a package.json of their own: installed the same way, not checked as examples. */
const INSTALLED_FIXTURES = ["test/fixtures/adopter-authless"];

export default async function setup(): Promise<void> {
  // One after another: three npm installs at once cost more than the three in a row.
  for (const example of [...EXAMPLES, ...INSTALLED_FIXTURES]) await installedExample(example);
}
