/**
 * The task card, an MCP App (ext-apps view SDK): the host shows it beside a call of a
 * task-capable tool and sends it the call's input and result. A still-running result names a
 * task, which the card follows through the host's proxied tool calls until it ends.
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import { ToolResultSchema } from "./data";
import { TaskFollower } from "./follow";
import { CardView } from "./render";

const app = new App({ name: "mcp-task-worker task card", version: "1.0.0" }, {}, { autoResize: true });

const follower = new TaskFollower(
  {
    available: () => app.getHostCapabilities()?.serverTools !== undefined,
    call: async (name, args) => ToolResultSchema.parse(await app.callServerTool({ name, arguments: args })),
  },
  (model) => view.render(model),
);

const view = new CardView({
  get canAct() {
    return app.getHostCapabilities()?.serverTools !== undefined;
  },
  cancel: () => void follower.cancel(), // errors end up in the card's notice, not here
  answer: (key, answer) => void follower.answer(key, answer),
});

function applyHostContext(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  if (context.toolInfo) follower.setInput(context.toolInfo.tool.name, undefined);
}

// Handlers first: the host may send the input and result as soon as the handshake ends.
app.addEventListener("toolinput", (params) => follower.setInput(undefined, params.arguments ?? {}));
app.addEventListener("toolresult", (result) => {
  const parsed = ToolResultSchema.safeParse(result);
  if (parsed.success) follower.receiveResult(parsed.data);
});
app.addEventListener("toolcancelled", (params) => follower.cancelled(params.reason));
app.addEventListener("hostcontextchanged", (context) => applyHostContext(context));
app.onteardown = () => {
  follower.stop();
  return {};
};

view.render(follower.model);
app
  .connect()
  .then(() => applyHostContext(app.getHostContext()))
  .catch((error: unknown) => {
    follower.model.notice = `Could not connect to the chat client: ${error instanceof Error ? error.message : String(error)}`;
    view.render(follower.model);
  });
