// The import rules of docs/architecture.md ("Layers"), checked over src/ by
// test/unit/layers.test.ts (in `npm test`) or by hand: `npm exec -- depcruise src`.
// Each rule's name is what a failing test prints; its comment says what to do instead.

/**
 * Top to bottom, as docs/architecture.md lists them: each may import only the ones after it.
 * A folder is one layer however deep it goes, so src/core/'s wings (core/model, core/object, …)
 * stay under the one `core` entry.
 */
const LAYERS = [
  ["index", "src/index\\.ts$"],
  ["tools", "src/tools/"],
  // The template's own event types (docs/events.md), one file each, like its tools.
  ["event-types", "src/event-types/"],
  // The adopters' face (mcp-task-worker/agents): wires the engine into an agents Worker.
  ["adopt", "src/adopt/"],
  ["package", "src/package/"],
  ["mcp-2026-07-28", "src/mcp-2026-07-28/"],
  ["mcp-2025-11-25", "src/mcp-2025-11-25/"],
  ["eras", "src/eras/"],
  ["http", "src/http/"],
  ["sessions", "src/sessions/"],
  // The Events extension's engine: event types, their logs (one Durable Object each) and deliveries.
  ["events", "src/events/"],
  ["protocol", "src/protocol/"],
  ["webhooks", "src/webhooks/"],
  ["workflows", "src/workflows/"],
  ["jobs", "src/jobs/"],
  ["principals", "src/principals/"],
  ["queues", "src/queues/"],
  ["core", "src/core/"],
  ["streams", "src/streams/"],
  ["json", "src/json\\.ts$"],
  ["config", "src/(config\\.ts$|settings/)"],
  ["limits", "src/limits/"],
  ["leases", "src/leases/"],
  ["pages", "src/pages/"],
  ["shims", "src/shims/"],
];

const anyOf = (layers) => `^(${layers.map(([, path]) => path).join("|")})`;

const upwardRules = LAYERS.slice(1).map(([name, path], index) => ({
  name: `layers-${name}`,
  comment:
    `${path.replace(/\\|\$/g, "")} imports only the layers below it (${
      LAYERS.slice(index + 2)
        .map(([below]) => below)
        .join(", ") || "none"
    }): ` + "what it needs from above comes in through a port (src/core/ports.ts) or a parameter.",
  severity: "error",
  from: { path: `^${path}` },
  to: { path: anyOf(LAYERS.slice(0, index + 1)) },
}));

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    ...upwardRules,
    {
      name: "layers-unlisted",
      comment:
        "Every file of src/ belongs to a layer: add a new folder to LAYERS in .dependency-cruiser.cjs (and to docs/architecture.md).",
      severity: "error",
      from: { path: "^src/", pathNot: anyOf(LAYERS) },
      to: {},
    },
    {
      name: "layers-unlisted-imported",
      comment:
        "Every file of src/ belongs to a layer: add a new folder to LAYERS in .dependency-cruiser.cjs (and to docs/architecture.md).",
      severity: "error",
      from: {},
      to: { path: "^src/", pathNot: anyOf(LAYERS) },
    },
    {
      name: "core-no-mcp-sdk",
      comment: "The core is protocol-neutral: MCP types and the SDK belong to src/protocol and the era adapters.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "(^|/)node_modules/@modelcontextprotocol/" },
    },
    {
      name: "core-no-http",
      comment: "The core serves RPC, not HTTP: hono and the OAuth provider belong to src/http.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "(^|/)node_modules/(hono|@cloudflare/workers-oauth-provider)/" },
    },
    {
      name: "core-no-queue-binding",
      comment:
        "The core sends through its queue port (src/core/queue-port.ts), never to a Queue binding: " +
        "src/queues holds the bindings. Bindings are ambient types no import shows, so " +
        "test/unit/layers.test.ts also reads src/core for their use.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^src/queues/" },
    },
    {
      name: "engine-not-to-template",
      comment:
        "The engine (all of src/ but the template's src/index.ts and src/tools/) is the package: it never " +
        "imports the template. Tools come in through createTaskWorker({ tools }) (src/package), which " +
        "hands src/jobs a findTool and src/protocol a ToolRegistry; import tool types from src/jobs/define-tool.ts.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(index\\.ts$|tools/)" },
      to: { path: "^src/(index\\.ts$|tools/)" },
    },
    {
      name: "template-through-the-package",
      comment:
        "The template (src/index.ts, src/tools/, src/event-types/) uses the engine only through the package's public face: " +
        'import { … } from "mcp-task-worker" (src/package/index.ts); if a tool needs more, export it there ' +
        "and list it in docs/api.md.",
      severity: "error",
      from: { path: "^src/(index\\.ts$|tools/|event-types/)" },
      to: { path: "^src/", pathNot: "^src/(tools/|event-types/|package/index\\.ts$)" },
    },
    {
      name: "template-imports-the-package-by-name",
      comment:
        'The template imports the package by its name ("mcp-task-worker"), never by a relative path, so ' +
        "its files read the same in a project that installs the package from npm.",
      severity: "error",
      from: { path: "^src/(index\\.ts$|tools/|event-types/)" },
      to: { path: "^src/package/index\\.ts$", dependencyTypes: ["local"] },
    },
    {
      name: "streams-imports-nothing-else",
      comment:
        "src/streams is generic over the event type: it imports no other folder (but the leaf src/json.ts) and no package.",
      severity: "error",
      from: { path: "^src/streams/" },
      to: { pathNot: "^(src/streams/|src/json\\.ts$)" },
    },
    {
      name: "leases-imports-nothing-else",
      comment:
        "src/leases is generic over what is leased (tokens, admission slots): it imports no other folder and no package.",
      severity: "error",
      from: { path: "^src/leases/" },
      to: { pathNot: "^src/leases/" },
    },
    {
      name: "no-circular",
      comment: "No module reaches itself through its imports, type-only ones included: move the shared type to a leaf.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "Every import resolves, so no package import slips past the rules above unrecognised.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "core-through-its-face",
      comment:
        "Outside src/core, import the core only through src/core/index.ts (its one face): export what you need there.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/core/" },
      to: { path: "^src/core/", pathNot: "^src/core/index\\.ts$" },
    },
  ],
  options: {
    // swc, because dependency-cruiser 18 cannot use TypeScript 7's compiler; swc reports
    // type-only imports too, so a circle made of types alone still counts.
    parser: "swc",
    doNotFollow: { path: "(^|/)node_modules/" },
    builtInModules: { add: ["cloudflare:workers", "cloudflare:workflows"] },
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["workerd", "worker", "import", "types", "default"],
      mainFields: ["module", "main", "types"],
    },
  },
};
