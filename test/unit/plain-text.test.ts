// Words without control bytes (src/core/model/plain-text.ts): a piece, a progress or log message, a
// question become sentences and status messages with no ESC or other C0/C1 byte left in them.
import { describe, it } from "vitest";
import { plainText } from "../../src/core/model/plain-text";
import { recordPartial } from "../../src/core/model/partial";
import { newTask, recordProgress } from "../../src/core/model/machine";
import { taskSnapshot } from "../../src/core/client/task-rpc";
import { statusMessage } from "../../src/mcp-2026-07-28/task-wire";
import { partialMeta } from "../../src/protocol/partial-output";
import { newestPiecesPhrase } from "../../src/protocol/partial-sentences";

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control bytes is what this is for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const RED = "\u001b[31mred\u001b[0m";

describe("plainText", () => {
  it("drops terminal escape sequences whole, leaving the words", ({ expect }) => {
    expect(plainText(`${RED} alert`)).toBe("red alert");
    expect(plainText("\u009b1;31mC1 CSI")).toBe("C1 CSI");
    expect(plainText("\u001b]0;title\u0007after")).toBe("after");
    expect(plainText("a\u001bcb\u001b(Bc")).toBe("abc");
  });

  it("removes every other C0 and C1 byte and DEL", ({ expect }) => {
    const all = `${Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join("")}\u007f\u0085\u009f`;
    // Tab, newline and carriage return become spaces; the rest go.
    expect(plainText(`x${all}y`)).toBe("x   y");
    expect(CONTROL.test(plainText(`x${all}y`, { lines: true }))).toBe(false);
  });

  it("keeps newlines where the surface shows lines, and makes them spaces where it shows one", ({ expect }) => {
    expect(plainText("one\r\ntwo\rthree\tfour", { lines: true })).toBe("one\ntwo\nthree\tfour");
    expect(plainText("one\r\ntwo\tthree")).toBe("one two three");
  });

  it("returns plain words unchanged", ({ expect }) => {
    const words = "Item 3 of 10: 9. « ünïcödé » ✓";
    expect(plainText(words)).toBe(words);
  });
});

describe("a piece with control bytes, in words", () => {
  const T0 = 1_700_000_000_000;
  const created = newTask(
    {
      taskId: "b".repeat(32),
      principal: "alice",
      tool: "batch_process",
      args: {},
      defaultTtlMs: 60_000,
      maxTtlMs: 60_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    T0,
  ).record;
  const working = { ...created, status: "working" as const, statusMessage: `Running ${RED}.` };
  const progressed = recordProgress(working, { progress: 1, total: 2, message: `step ${RED}` }, T0 + 5).record;
  const published = recordPartial(progressed, [{ type: "text", text: `piece ${RED}\u0007` }]).record;
  const snapshot = taskSnapshot(published, 3, T0 + 10);

  it("reaches the 2026 statusMessage without them", ({ expect }) => {
    const message = statusMessage(snapshot) ?? "";
    expect(message).toContain("piece red");
    expect(message).toContain("step red");
    expect(CONTROL.test(message)).toBe(false);
  });

  it("reaches _meta newest and task_status's words without them", ({ expect }) => {
    expect(partialMeta(snapshot)).toEqual({ count: 1, newest: [{ n: 1, text: "piece red" }] });
    expect(newestPiecesPhrase(snapshot)).toContain('1. "piece red"');
    expect(CONTROL.test(newestPiecesPhrase(snapshot))).toBe(false);
  });
});
