// The 2025-11-25 `tasks/list` (the McpAgent lane's, and the template's) for the per-task principal of
// `durableTasks({ principal: "per-task" })`: refused in words before the index is asked, since
// every caller's tasks would be listed.
import { describe, it } from "vitest";
import { ListTasksRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { PER_TASK_PRINCIPAL } from "../../src/core";
import { registerTaskHandlers } from "../../src/mcp-2025-11-25/handlers/tasks";
import { ErrorCode } from "../../src/protocol/errors";

describe("2025-11-25 tasks/list of the per-task principal", () => {
  it("is refused (-32600) in words, and the gateway is never asked", async ({ expect }) => {
    const handlers = new Map<unknown, (request: unknown) => Promise<unknown>>();
    const asked: string[] = [];
    // Only setRequestHandler is reached: the handlers are called here directly.
    const server = Object.assign(Object.create(null), {
      setRequestHandler: (schema: unknown, handler: (request: unknown) => Promise<unknown>) =>
        handlers.set(schema, handler),
    });
    const gateway = Object.assign(Object.create(null), {
      list: async () => {
        asked.push("list");
        return { tasks: [] };
      },
    });
    registerTaskHandlers(server, Object.assign(Object.create(null), { principal: PER_TASK_PRINCIPAL, gateway }));
    const list = handlers.get(ListTasksRequestSchema);
    await expect(list?.({ method: "tasks/list", params: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
      message: expect.stringContaining("never listed"),
    });
    expect(asked).toEqual([]);
  });
});
