// A 2026-07-28 requester in plain Node (22+, no dependencies): calls a durable tool with the Tasks
// extension declared, then follows its task with `tasks/get` at the interval the server asks for,
// printing each status line, until it ends; prints the result's text. Copy it as it is.
//
//   node follow-task.mjs http://localhost:8787/mcp countdown '{"seconds":3}'
//
// Every request carries the 2026-07-28 envelope in `_meta` and the headers the spec names
// (docs/mcp-2026-07-28.md); a tools/call without a progressToken is answered as plain JSON.
const [endpoint = "http://localhost:8787/mcp", tool = "countdown", args = '{"seconds":3}'] = process.argv.slice(2);
const headersOut = process.env.TASK_HEADERS ? JSON.parse(process.env.TASK_HEADERS) : {}; // e.g. your auth header

let id = 0;
async function request(method, params, name) {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name !== undefined && { "Mcp-Name": name }),
      ...headersOut,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++id,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "follow-task", version: "1.0.0" },
          // Declaring the Tasks extension is what makes a durable tool answer with a task.
          "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
        },
      },
    }),
  });
  const text = await response.text();
  // An answer upgraded to SSE (it would be, with a progressToken) ends with the response's `data:` line.
  const json = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? JSON.parse(
        text
          .trim()
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .at(-1)
          .slice(5),
      )
    : JSON.parse(text);
  if (json.error) throw new Error(`${method}: ${json.error.code} ${json.error.message} (HTTP ${response.status})`);
  return json.result;
}

const textOf = (result) => (result?.content ?? []).map((block) => block.text ?? "").join("");

const created = await request("tools/call", { name: tool, arguments: JSON.parse(args) }, tool);
if (created.resultType !== "task") {
  // A tool that is not durable (or answered at once) gives its result directly.
  console.log(textOf(created));
  process.exit(created.isError ? 1 : 0);
}
console.log(`task ${created.taskId}: ${created.status}`);
let task = created;
let said = "";
while (task.status === "working" || task.status === "input_required") {
  await new Promise((resolve) => setTimeout(resolve, task.pollIntervalMs ?? 1000));
  task = await request("tasks/get", { taskId: created.taskId }, created.taskId);
  const line = `${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ""}`;
  if (line !== said) console.log((said = line));
  // A question waits in task.inputRequests: answer it with tasks/update (docs/human-in-the-loop.md).
}
if (task.status === "completed") console.log(textOf(task.result));
else console.log(`task ${task.status}: ${task.error?.message ?? task.statusMessage ?? ""}`);
process.exit(task.status === "completed" && !task.result?.isError ? 0 : 1);
