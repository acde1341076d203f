/**
 * The view's side of MCP Apps (2026-01-26) over postMessage, as much of it as the task card uses:
 * the `ui/initialize` handshake, the host's tool input, result and cancellation notifications,
 * context changes and teardown, proxied `tools/call`, and size changes. It stands in for ext-apps'
 * `App`, which brings the SDK v2 client's `Protocol` and full zod (~100 KiB gzip) into a page the
 * Worker now carries in its script (docs/bundle.md, "The task card").
 */
import { watchSize } from "./auto-size";
import {
  HostContextSchema,
  IncomingCallSchema,
  IncomingResponseSchema,
  InitializeResultSchema,
  PROTOCOL_VERSION,
  ToolCancelledParamsSchema,
  ToolInputParamsSchema,
  type HostContext,
  type InitializeResult,
} from "./schema";

export type { HostContext };
type Params = Record<string, unknown>;

/** What the host tells the view; each handler gets params already checked. */
export interface ViewHandlers {
  toolInput(args: Params): void;
  /** The call's result, unparsed: what a result is, is the card's business (data.ts). */
  toolResult(result: Params): void;
  toolCancelled(reason: string | undefined): void;
  /** Only what changed (the view keeps the merged context in `hostContext`). */
  hostContextChanged(change: HostContext): void;
  teardown(): void;
}

/** How long the view waits for an answer to a request: the MCP SDK's default request timeout. */
const REQUEST_TIMEOUT_MS = 60_000;

interface Pending {
  resolve(result: Params): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class McpAppView {
  private host?: InitializeResult;
  private nextId = 1;
  private readonly pending = new Map<string | number, Pending>();

  constructor(
    private readonly appInfo: { name: string; version: string },
    private readonly handlers: ViewHandlers,
    private readonly parent: Window = window.parent,
  ) {}

  /** Whether the host proxies the view's tool calls to the server (`serverTools`). */
  get canCallServerTools(): boolean {
    return this.host?.hostCapabilities.serverTools !== undefined;
  }

  get hostContext(): HostContext | undefined {
    return this.host?.hostContext;
  }

  /** The handshake: `ui/initialize`, then `ui/notifications/initialized`; then sizes follow the document. */
  async connect(): Promise<void> {
    window.addEventListener("message", this.onMessage);
    const result = InitializeResultSchema.safeParse(
      await this.request("ui/initialize", {
        appInfo: this.appInfo,
        appCapabilities: {},
        protocolVersion: PROTOCOL_VERSION,
      }),
    );
    if (!result.success)
      throw new Error(`The chat client's ui/initialize answer is not MCP Apps': ${result.error.message}`);
    this.host = result.data;
    this.send({ method: "ui/notifications/initialized" });
    watchSize((size) => this.send({ method: "ui/notifications/size-changed", params: size }));
  }

  /** A tool call on the card's server, through the host; the result as the host sent it. */
  callServerTool(name: string, args: Params): Promise<Params> {
    return this.request("tools/call", { name, arguments: args });
  }

  private request(method: string, params: Params): Promise<Params> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`The chat client did not answer ${method} within ${REQUEST_TIMEOUT_MS / 1000} s.`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.send({ id, method, params });
    });
  }

  private send(message: Params): void {
    // The host checks where messages come from (event.source); the card's own origin is opaque.
    this.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  private readonly onMessage = (event: MessageEvent): void => {
    if (event.source !== this.parent) return;
    const call = IncomingCallSchema.safeParse(event.data);
    if (call.success) {
      const { id, method, params = {} } = call.data;
      if (id === undefined) this.notified(method, params);
      else this.answer(id, method);
      return;
    }
    const response = IncomingResponseSchema.safeParse(event.data);
    const pending = response.success ? this.pending.get(response.data.id) : undefined;
    if (!response.success || !pending) return; // not JSON-RPC, or not an answer to us
    this.pending.delete(response.data.id);
    clearTimeout(pending.timer);
    const { error, result } = response.data;
    if (error) pending.reject(new Error(error.message));
    else pending.resolve(result ?? {});
  };

  private notified(method: string, params: Params): void {
    switch (method) {
      case "ui/notifications/tool-input": {
        const input = ToolInputParamsSchema.safeParse(params);
        if (input.success) this.handlers.toolInput(input.data.arguments ?? {});
        return;
      }
      case "ui/notifications/tool-result":
        this.handlers.toolResult(params);
        return;
      case "ui/notifications/tool-cancelled": {
        const cancelled = ToolCancelledParamsSchema.safeParse(params);
        this.handlers.toolCancelled(cancelled.success ? cancelled.data.reason : undefined);
        return;
      }
      case "ui/notifications/host-context-changed": {
        const change = HostContextSchema.safeParse(params);
        if (!change.success || !this.host) return;
        this.host.hostContext = { ...this.host.hostContext, ...change.data };
        this.handlers.hostContextChanged(change.data);
        return;
      }
      // Anything else (tool-input-partial, progress…) the card does not use.
    }
  }

  private answer(id: string | number, method: string): void {
    if (method === "ui/resource-teardown") this.handlers.teardown();
    if (method === "ping" || method === "ui/resource-teardown") this.send({ id, result: {} });
    else this.send({ id, error: { code: -32601, message: `The task card does not handle ${method}.` } });
  }
}
