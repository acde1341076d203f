// The tools createTaskWorker records for an isolate (src/package/tool-set.ts): what the TaskObject
// reads, and the clear errors when they are missing, given twice, or named twice.
import { describe, it } from "vitest";
import * as z from "zod";
import { defineTool } from "../../src/jobs/define-tool";
import { toolHolder } from "../../src/package/tool-set";

const tool = (name: string) =>
  defineTool({ name, description: name, inputSchema: z.object({}), taskSupport: "optional", run: async () => name });

describe("the tools of an isolate", () => {
  it("are found by name once recorded, in the order given", ({ expect }) => {
    const holder = toolHolder();
    const registry = holder.record([tool("a"), tool("b")]);
    expect(registry.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(holder.recorded().find("b")?.name).toBe("b");
    expect(holder.recorded().find("c")).toBeUndefined();
  });

  it("read before createTaskWorker ran: an error that names both factories and where to call them", ({ expect }) => {
    expect(() => toolHolder().recorded()).toThrow(
      /before createTaskWorker\(\{ tools \}\) \(or durableTasks\(\{ tools \}\) in an agents Worker\) was called.*main module/,
    );
  });

  it("recorded a second time with other tools: refused, naming the factory called", ({ expect }) => {
    const holder = toolHolder();
    holder.record([tool("a")]);
    expect(() => holder.record([tool("b")])).toThrow(
      /createTaskWorker was called twice in one Worker with different tools \(a then b\)/,
    );
    expect(() => holder.record([tool("b")], "durableTasks")).toThrow(/^durableTasks was called twice/);
    expect(holder.recorded().find("a")?.name).toBe("a");
  });

  it("recorded again with the same tools (two lanes of one Worker): the same registry", ({ expect }) => {
    const holder = toolHolder();
    const first = holder.record([tool("a"), tool("b")], "durableTasks");
    expect(holder.record([tool("a"), tool("b")], "durableTasks")).toBe(first);
  });

  it("two tools of one name: refused, naming the name and the factory", ({ expect }) => {
    expect(() => toolHolder().record([tool("a"), tool("a")])).toThrow(
      /Two tools are named "a" in the list given to createTaskWorker/,
    );
    expect(() => toolHolder().record([tool("a"), tool("a")], "durableTasks")).toThrow(/given to durableTasks/);
  });
});
