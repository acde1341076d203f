/**
 * `npm run demo`: one `batch_process` task watched from a terminal, with a live progress bar, a
 * connection dropped halfway and resumed with Last-Event-ID. It starts no server: run `npm run dev`
 * first (or pass --url and --token for a deployed one). Exits 0 when the result arrived with every
 * progress value exactly once, 1 otherwise, 2 on bad options.
 */
import { parseArgs } from "node:util";
import { explain } from "./demo/explain.ts";
import { createNarrator } from "./demo/narrator.ts";
import { runDemo, type DemoOptions } from "./demo/run-demo.ts";

const USAGE = `Usage: npm run demo -- [options]

  --url <url>                 the MCP endpoint (default http://127.0.0.1:8787/mcp, what \`npm run dev\` serves)
  --token <token>             bearer token for a server with API_KEYS (or set MCP_TOKEN)
  --items <n>                 items for batch_process, 2 to 1000 (default 12)
  --seconds-per-item <s>      simulated work per item, 0.1 to 60 (default 0.5)
  --offline <s>               how long to stay disconnected, 0 to 600 (default 2)
  --help                      this text`;

function number(raw: string, name: string, min: number, max: number): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max)
    throw new RangeError(`--${name} must be a number from ${min} to ${max} (got "${raw}").`);
  return value;
}

function readOptions(argv: string[]): DemoOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: "string", default: "http://127.0.0.1:8787/mcp" },
      token: { type: "string" },
      items: { type: "string", default: "12" },
      "seconds-per-item": { type: "string", default: "0.5" },
      offline: { type: "string", default: "2" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) return "help";
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new RangeError(`--url must be a URL such as http://127.0.0.1:8787/mcp (got "${values.url}").`);
  }
  const items = number(values.items, "items", 2, 1000);
  if (!Number.isInteger(items)) throw new RangeError(`--items must be a whole number (got "${values.items}").`);
  return {
    url,
    token: values.token ?? (process.env["MCP_TOKEN"] || undefined),
    items,
    secondsPerItem: number(values["seconds-per-item"], "seconds-per-item", 0.1, 60),
    offlineSeconds: number(values.offline, "offline", 0, 600),
  };
}

let options: DemoOptions | "help";
try {
  options = readOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
  process.exit(2);
}
if (options === "help") {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const narrator = createNarrator();
// Ctrl-C: put the bar away and the cursor back before leaving.
process.once("SIGINT", () => {
  narrator.stop();
  process.exit(130);
});
try {
  await runDemo(options, narrator);
} catch (error) {
  narrator.fail(explain(error, { url: options.url.href, tokenGiven: options.token !== undefined }));
  process.exitCode = 1;
} finally {
  narrator.stop();
}
