/**
 * Browser side of the test host: mounts MCP App views in sandboxed iframes and talks to them
 * with the ext-apps host SDK (`AppBridge`), as a chat client would. Tool calls from a view go
 * to `window.hostCallTool`, which the test exposes from Node (where the MCP client runs).
 * Bundled by app-host.ts at test time.
 */
import {
  AppBridge,
  McpUiHostStylesSchema,
  PostMessageTransport,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps/app-bridge";

type ToolHandler = NonNullable<AppBridge["oncalltool"]>;
export type CallToolParams = Parameters<ToolHandler>[0];
export type CallToolResult = Awaited<ReturnType<ToolHandler>>;

export interface MountOptions {
  id: string;
  toolName: string;
  theme?: "light" | "dark";
  /** Host style variables (MCP Apps "Theming"), e.g. `{ "--color-text-info": "#123" }`. */
  styleVariables?: Record<string, string>;
  /** Omit `serverTools` from the host's capabilities (a host that cannot proxy tool calls). */
  noServerTools?: boolean;
  width?: number;
}

declare global {
  interface Window {
    hostCallTool(id: string, params: CallToolParams): Promise<CallToolResult>;
    testHost: {
      mount(options: MountOptions): Promise<void>;
      input(id: string, args: Record<string, unknown>): Promise<void>;
      result(id: string, result: CallToolResult): Promise<void>;
      teardown(id: string): Promise<void>;
      theme(id: string, theme: "light" | "dark"): void;
    };
  }
}

const bridges = new Map<string, AppBridge>();
const contexts = new Map<string, McpUiHostContext>();

function bridgeOf(id: string): AppBridge {
  const bridge = bridges.get(id);
  if (!bridge) throw new Error(`No view mounted as ${id}.`);
  return bridge;
}

function hostContextFor(
  options: MountOptions,
  tool: { name: string; inputSchema: { type: "object" } },
): McpUiHostContext {
  const context: McpUiHostContext = { toolInfo: { tool }, displayMode: "inline" };
  if (options.theme) context.theme = options.theme;
  // The SDK's own schema turns a partial set of variables into its full McpUiStyles record.
  if (options.styleVariables) context.styles = McpUiHostStylesSchema.parse({ variables: options.styleVariables });
  return context;
}

async function mount(options: MountOptions): Promise<void> {
  const slot = document.createElement("div");
  slot.className = "slot";
  const iframe = document.createElement("iframe");
  // No allow-same-origin: the view runs in an opaque origin, as in a web host's sandbox.
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.dataset["view"] = options.id;
  iframe.style.width = `${options.width ?? 480}px`;
  slot.append(iframe);
  document.getElementById("views")?.append(slot);
  const contentWindow = iframe.contentWindow;
  if (!contentWindow) throw new Error("The iframe has no window.");

  const tool = { name: options.toolName, inputSchema: { type: "object" as const } };
  const bridge = new AppBridge(
    null,
    { name: "test-host", version: "1.0.0" },
    options.noServerTools ? { logging: {} } : { serverTools: {}, logging: {} },
    {
      hostContext: hostContextFor(options, tool),
    },
  );
  bridge.oncalltool = (params) => window.hostCallTool(options.id, params);
  bridge.addEventListener("sizechange", ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  });
  const initialized = new Promise<void>((resolve) => bridge.addEventListener("initialized", () => resolve()));
  // Listen before the view loads, so its ui/initialize is not missed.
  await bridge.connect(new PostMessageTransport(contentWindow, contentWindow));
  iframe.src = `/view?id=${encodeURIComponent(options.id)}`;
  bridges.set(options.id, bridge);
  contexts.set(options.id, hostContextFor(options, tool));
  await initialized;
}

window.testHost = {
  mount,
  input: (id, args) => bridgeOf(id).sendToolInput({ arguments: args }),
  result: (id, result) => bridgeOf(id).sendToolResult(result),
  async teardown(id) {
    await bridgeOf(id).teardownResource({});
  },
  // The whole context, as a host keeps it; the bridge sends the view only what changed.
  theme(id, theme) {
    const context = { ...contexts.get(id), theme };
    contexts.set(id, context);
    bridgeOf(id).setHostContext(context);
  },
};
