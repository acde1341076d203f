// What an adopted tool looks like to clients stays what its author wrote (issue 49, point 7): the
// listing keeps its position (tasks.registerTool where the author's registerTool was), its
// inputSchema reads exactly as the SDK lists the same zod schema, a raw shape included, and it
// gains no outputSchema unless declared. A 2025 answer carries no structuredContent that repeats the text.
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { describe, it } from "vitest";
import * as z from "zod";
import { withoutRepeatedText, withoutSentences } from "../../src/adopt/as-written-result";
import { adopterListings } from "../../src/adopt/listing";
import { registerOn, registerOneOn } from "../../src/adopt/register";
import { defineTool } from "../../src/jobs/define-tool";
import type { ToolRegistry } from "../../src/protocol/tool-registry";

const shape = { city: z.string().describe("Where."), days: z.number().int().min(1).max(7).default(3) };

const forecast = defineTool({
  name: "forecast",
  description: "The weather for the next days.",
  inputSchema: shape,
  taskSupport: "optional",
  async run({ city, days }) {
    return `${days} days of sun in ${city}.`;
  },
});

const report = defineTool({
  name: "report",
  description: "A report.",
  inputSchema: z.object({ topic: z.string() }),
  outputSchema: z.object({ pages: z.number() }),
  taskSupport: "optional",
  async run() {
    return { content: [{ type: "text", text: "Done." }], structuredContent: { pages: 3 } };
  },
});

// What durableTasks({ tools }) wires, without recording the tools in the isolate the unit files share.
const registry: ToolRegistry = {
  tools: [forecast, report],
  find: (name) => [forecast, report].find((t) => t.name === name),
};
const listings = adopterListings(registry);
const tasks = {
  registerTool: (server: McpServer, name: string) => registerOneOn(server, registry, listings.durable, name),
  register: (server: McpServer) => registerOn(server, registry, listings),
};

async function listed() {
  const server = new McpServer({ name: "adopter", version: "1.0.0" });
  server.registerTool("first", { description: "Plain, before.", inputSchema: shape }, async () => ({ content: [] }));
  tasks.registerTool(server, "forecast");
  server.registerTool("last", { description: "Plain, after.", inputSchema: z.object({}) }, async () => ({
    content: [],
  }));
  tasks.register(server);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe("an adopted tool's listing", () => {
  it("keeps its position: registerTool places it, register adds the rest after", async ({ expect }) => {
    const names = (await listed()).map((tool) => tool.name);
    expect(names.slice(0, 4)).toEqual(["first", "forecast", "last", "report"]);
    expect(names).toContain("task_status");
  });

  it("lists a raw-shape inputSchema exactly as the SDK lists the author's own tool with it", async ({ expect }) => {
    const tools = await listed();
    const plain = tools.find((tool) => tool.name === "first");
    expect(tools.find((tool) => tool.name === "forecast")?.inputSchema).toEqual(plain?.inputSchema);
  });

  it("gains no outputSchema unless declared; a declared one keeps the author's fields", async ({ expect }) => {
    const tools = await listed();
    expect(tools.find((tool) => tool.name === "forecast")).not.toHaveProperty("outputSchema");
    expect(tools.find((tool) => tool.name === "report")?.outputSchema?.properties).toHaveProperty("pages");
  });

  it("registerTool names a tool durableTasks has, or says which it has", ({ expect }) => {
    expect(() => tasks.registerTool(new McpServer({ name: "a", version: "1" }), "nope")).toThrow(
      /"forecast", "report"/,
    );
  });
});

describe("a 2025 answer of a tool without an outputSchema", () => {
  it("drops the summary that repeats its text, and keeps the tool's own structured fields", ({ expect }) => {
    const text = { content: [{ type: "text", text: "Hi." }] };
    expect(withoutRepeatedText({ ...text, structuredContent: { summary: "Hi." } })).toEqual(text);
    expect(withoutRepeatedText({ ...text, structuredContent: { summary: "Hi.", n: 1 } })).toEqual({
      ...text,
      structuredContent: { n: 1 },
    });
    expect(withoutRepeatedText({ ...text, structuredContent: { summary: "Other." } })).toHaveProperty(
      "structuredContent.summary",
      "Other.",
    );
  });

  it("the still-running answer keeps the task as data without its sentences", ({ expect }) => {
    const answer = withoutSentences({
      content: [{ type: "text", text: "Still running." }],
      structuredContent: { summary: "Still running.", next: "Call task_status.", taskId: "t", status: "working" },
    });
    expect(answer["structuredContent"]).toEqual({ taskId: "t", status: "working" });
  });
});
