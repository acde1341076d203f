/// <reference path="./async-hooks.d.ts" />
/**
 * Names for a job's durable operations that a replay reaches again in ANY interleaving
 * (docs/writing-tools.md, "Durable names"). A step is named by its author. Anything else a job
 * records (a sleep, a fan-out, a publish) is named by the step whose body it runs in (or the job
 * itself), by what it is (its arguments), and by how many identical calls came before it there.
 * Which concurrent work finishes first never enters a name, and two calls that share a name are
 * identical, so which of them a replay meets first changes nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { PermanentError } from "./context";

/** The durable operations named by scope and arguments (steps are named by their author). */
export type NamedKind = "sleep" | "fanout" | "publish" | "emit";

export class DurableNames {
  /** The step whose body is running, per async flow: code awaited inside a body belongs to it. */
  private readonly scope = new AsyncLocalStorage<string>();
  /** How many identical calls each scope made so far, by kind and arguments. */
  private readonly seen = new Map<string, Map<string, number>>();
  /** Steps whose bodies are running now. */
  private readonly running = new Set<string>();
  /** Those of them given options: each attempt runs the body again from its start. */
  private readonly journaled = new Set<string>();

  /**
   * Runs a step's body inside the step's scope. Two bodies of one name at once would share every
   * name inside them, and which finished first would decide the stored result: refused.
   */
  async inStep<T>(name: string, body: () => T | Promise<T>, journaled = false): Promise<T> {
    if (this.running.has(name)) {
      throw new PermanentError(
        `job.step("${name}") was called while a step of the same name is running: steps that run at once need names of their own (e.g. \`${name} \${i}\`).`,
      );
    }
    this.running.add(name);
    // A step inside a step with options runs again with each attempt too: its waits are refused alike.
    const outer = this.scope.getStore();
    if (journaled || (outer !== undefined && this.journaled.has(outer))) this.journaled.add(name);
    try {
      return await this.scope.run(name, body);
    } finally {
      this.running.delete(name);
      this.journaled.delete(name);
    }
  }

  /**
   * Refuses a durable wait (a sleep, a question, a fan-out) inside a step given options: its next
   * attempt would meet the same names and find the wait already over, the answer already given.
   */
  refuseWaitInJournaledStep(what: string): void {
    const step = this.scope.getStore();
    if (step === undefined || !this.journaled.has(step)) return;
    throw new PermanentError(
      `${what} was called inside job.step("${step}"), where each attempt of a step with options runs the body again from its start: it cannot wait durably there. Wait between steps, or give the step no options.`,
    );
  }

  /** The step whose body is running where this is called ("" for the job itself). */
  scopeName(): string {
    return this.scope.getStore() ?? "";
  }

  /** The step whose body the caller runs in, if any ("" for the job itself). */
  private current(what: string): string {
    const step = this.scope.getStore() ?? "";
    if (step !== "" && !this.running.has(step)) {
      // A replay skips a finished step's body, and with it anything it left running: never reached again.
      throw new PermanentError(
        `${what} was called from job.step("${step}") after that step returned; await it inside the step's body, or call it after the step.`,
      );
    }
    return step;
  }

  /**
   * The name of this `kind` of call with these arguments (as JSON text) where it is called: the
   * n-th identical call in its scope gets `#n`, so repeats of one call are told apart by count.
   */
  next(kind: NamedKind, what: string, args: string): string {
    const scope = this.current(what);
    if (kind !== "publish") this.refuseWaitInJournaledStep(what);
    let seen = this.seen.get(scope);
    if (!seen) this.seen.set(scope, (seen = new Map()));
    const base = `${kind}\u0000${args}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return durableName(kind, scope, args, n);
  }

  /**
   * A step with options starts another attempt: its body runs again from the start, so its calls
   * are counted again from the first, and a retry's repeat of a publish gets the same name as before.
   */
  restartScope(step: string): void {
    this.seen.delete(step);
  }
}

/**
 * The n-th call of `kind` with `args` (JSON text) in `scope` (a step's name, "" for the job):
 * 64 bits of all of it, then `#n`. A fan-out's name is `fanout:` + this (its tables' convention).
 */
export function durableName(kind: NamedKind, scope: string, args: string, n: number): string {
  return `${hash64(`${kind}\u0000${scope}\u0000${args}`)}#${n}`;
}

/** The name of a job's n-th fan-out of `step` over `inputs` (JSON values), where it runs. */
export const fanOutName = (step: string, inputs: readonly unknown[], scope = "", n = 1): string =>
  `fanout:${durableName("fanout", scope, JSON.stringify([step, inputs]), n)}`;

/**
 * 64 bits of a string as 16 hex digits (two 32-bit FNV-1a lanes with different seeds, mixed):
 * collisions among the few names of one scope are out of reach, and it is synchronous, so names
 * are taken in call order.
 */
export function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= Math.imul(b, 0x85ebca6b);
  b ^= Math.imul(a, 0xc2b2ae35);
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
