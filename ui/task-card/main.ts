/**
 * The task card, an MCP App: the host shows it beside a call of a task-capable tool and sends it
 * the call's input and result. A still-running result names a task, which the card follows
 * through the host's proxied tool calls until it ends. It speaks MCP Apps itself (./mcp-app).
 */
import { ToolResultSchema } from "./data";
import { TaskFollower } from "./follow";
import { applyHostStyle } from "./mcp-app/host-style";
import { McpAppView, type HostContext } from "./mcp-app";
import { CardView } from "./render";

const follower = new TaskFollower(
  {
    available: () => app.canCallServerTools,
    call: async (name, args) => ToolResultSchema.parse(await app.callServerTool(name, args)),
  },
  (model) => view.render(model),
);

const view = new CardView({
  get canAct() {
    return app.canCallServerTools;
  },
  cancel: () => void follower.cancel(), // errors end up in the card's notice, not here
  answer: (key, answer) => void follower.answer(key, answer),
});

function applyHostContext(context: HostContext): void {
  applyHostStyle(context);
  if (context.toolInfo) follower.setInput(context.toolInfo.tool.name, undefined);
}

// Handlers are in place before the handshake: the host may send the input and result as soon as it ends.
const app = new McpAppView(
  { name: "mcp-task-worker task card", version: "1.0.0" },
  {
    toolInput: (args) => follower.setInput(undefined, args),
    toolResult: (result) => {
      const parsed = ToolResultSchema.safeParse(result);
      if (parsed.success) follower.receiveResult(parsed.data);
    },
    toolCancelled: (reason) => follower.cancelled(reason),
    hostContextChanged: applyHostContext,
    teardown: () => follower.stop(),
  },
);

view.render(follower.model);
app
  .connect()
  .then(() => applyHostContext(app.hostContext ?? {}))
  .catch((error: unknown) => {
    follower.model.notice = `Could not connect to the chat client: ${error instanceof Error ? error.message : String(error)}`;
    view.render(follower.model);
  });
