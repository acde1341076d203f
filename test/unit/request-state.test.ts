// The multi round-trip requestState (src/mcp-2026-07-28/request-state.ts): sealed for one task, one
// principal, one tool and its arguments, for an hour; anything else opens to nothing.
import { describe, it } from "vitest";
import type { JsonObject } from "../../src/json";
import {
  openRequestState,
  openRequestStateCall,
  REQUEST_STATE_TTL_MS,
  sealRequestState,
  type StateGateway,
} from "../../src/mcp-2026-07-28/request-state";

const TASK = "a".repeat(32);

/** A gateway over one shared store of task state, as principals see it: each reaches only its own tasks. */
function gatewayFor(principal: string, store: Map<string, JsonObject>, owner = "alice"): StateGateway {
  const name = (taskId: string, kind: string, key: string) => `${taskId}/${kind}/${key}`;
  return {
    principal,
    async lookupState(taskId, kind, key) {
      return principal === owner ? store.get(name(taskId, kind, key)) : undefined;
    },
    async attachState(taskId, kind, value, key = "1") {
      if (principal !== owner) return undefined;
      store.set(name(taskId, kind, key), value);
      return key;
    },
  };
}

describe("requestState", () => {
  it("opens to its task for the same principal, tool and arguments (in any key order)", async ({ expect }) => {
    const store = new Map<string, JsonObject>();
    const alice = gatewayFor("alice", store);
    const state = await sealRequestState(alice, {
      taskId: TASK,
      tool: "deploy",
      args: { service: "api", version: "v2" },
    });
    expect(state).toMatch(/^v1\./);
    expect(
      await openRequestState(alice, state ?? "", { tool: "deploy", args: { version: "v2", service: "api" } }),
    ).toBe(TASK);
  });

  it("digests nested arguments the same in any key order at every level", async ({ expect }) => {
    const store = new Map<string, JsonObject>();
    const alice = gatewayFor("alice", store);
    const state = await sealRequestState(alice, {
      taskId: TASK,
      tool: "deploy",
      args: { b: { y: [1, { q: 1, p: 2 }], x: 1 }, a: "1", 2: "two" },
    });
    expect(
      await openRequestState(alice, state ?? "", {
        tool: "deploy",
        args: { 2: "two", a: "1", b: { x: 1, y: [1, { p: 2, q: 1 }] } },
      }),
    ).toBe(TASK);
    expect(
      await openRequestState(alice, state ?? "", {
        tool: "deploy",
        args: { 2: "two", a: "1", b: { x: 1, y: [{ p: 2, q: 1 }, 1] } },
      }),
    ).toBeUndefined();
  });

  it("opens to nothing for another principal, tool or arguments, once expired, or altered", async ({ expect }) => {
    const store = new Map<string, JsonObject>();
    const alice = gatewayFor("alice", store);
    const now = 1_800_000_000_000;
    const state =
      (await sealRequestState(alice, { taskId: TASK, tool: "deploy", args: { service: "api" } }, now)) ?? "";
    const call = { tool: "deploy", args: { service: "api" } };
    expect(await openRequestState(gatewayFor("bob", store), state, call, now)).toBeUndefined();
    expect(await openRequestState(alice, state, { ...call, tool: "countdown" }, now)).toBeUndefined();
    expect(await openRequestState(alice, state, { ...call, args: { service: "web" } }, now)).toBeUndefined();
    expect(await openRequestState(alice, state, call, now + REQUEST_STATE_TTL_MS)).toBeUndefined();
    const [v, body, mac] = state.split(".");
    const tampered = `${v}.${body}.${mac?.startsWith("A") ? "B" : "A"}${mac?.slice(1)}`;
    expect(await openRequestState(alice, tampered, call, now)).toBeUndefined();
    for (const junk of ["", "v1", "v1..", "v2.x.y", "v1.!!.x", `v1.${btoa("{}")}.x`, `${state}.extra`])
      expect(await openRequestState(alice, junk, call, now)).toBeUndefined();
    expect(await openRequestState(alice, state, call, now)).toBe(TASK);
  });

  it("keeps one key per task: a second seal reuses it, so both states open", async ({ expect }) => {
    const store = new Map<string, JsonObject>();
    const alice = gatewayFor("alice", store);
    const first = (await sealRequestState(alice, { taskId: TASK, tool: "deploy", args: {} })) ?? "";
    const second = (await sealRequestState(alice, { taskId: TASK, tool: "deploy", args: {} })) ?? "";
    expect(store.size).toBe(1);
    expect(await openRequestState(alice, first, { tool: "deploy", args: {} })).toBe(TASK);
    expect(await openRequestState(alice, second, { tool: "deploy", args: {} })).toBe(TASK);
  });

  it("carries whether the asked call created its task, so only its retry may cancel it on leaving", async ({
    expect,
  }) => {
    const store = new Map<string, JsonObject>();
    const alice = gatewayFor("alice", store);
    const call = { tool: "deploy", args: {} };
    const owned = (await sealRequestState(alice, { taskId: TASK, ...call, owned: true })) ?? "";
    const found = (await sealRequestState(alice, { taskId: TASK, ...call })) ?? "";
    expect(await openRequestStateCall(alice, owned, call)).toEqual({ taskId: TASK, owned: true });
    expect(await openRequestStateCall(alice, found, call)).toEqual({ taskId: TASK, owned: false });
  });
});
