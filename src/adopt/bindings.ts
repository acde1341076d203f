/**
 * The adopter's bindings, checked at the first request that needs the engine: what basic tasks need
 * (two Durable Object namespaces and one queue), and what a feature needs only once it is used
 * (WEBHOOKS once WEBHOOK_SECRET is set; STEPS at a job's first fanOut, see wiring.ts). A problem is
 * reported in words that name the binding and the wrangler lines to add, never as a stack trace.
 */
import type { TaskRoutesBindings } from "../http/env";
import { isRecord } from "../json";

/** One wrangler.jsonc fragment per binding, as docs/adopting.md lists them. */
const DURABLE_OBJECTS: Record<string, string> = {
  TASKS: "TaskObject",
  PRINCIPALS: "PrincipalObject",
};

const QUEUES: Record<string, string> = {
  JOBS: "the engine's job dispatch (at-least-once, retried)",
};

const isNamespace = (value: unknown): value is DurableObjectNamespace =>
  isRecord(value) && typeof value["getByName"] === "function" && typeof value["idFromName"] === "function";

const isQueue = (value: unknown): value is Queue =>
  isRecord(value) && typeof value["send"] === "function" && typeof value["sendBatch"] === "function";

const objectLine = (name: string, className: string) =>
  `add { "name": "${name}", "class_name": "${className}" } to "durable_objects.bindings" in wrangler.jsonc ` +
  `(with "${className}" in a migration's "new_sqlite_classes"), and export { ${className} } from "mcp-task-worker/agents" in your main module.`;

const queueLine = (name: string) =>
  `add { "binding": "${name}", "queue": "<your-worker>-${name.toLowerCase()}" } to "queues.producers" and ` +
  `{ "queue": "<your-worker>-${name.toLowerCase()}", "max_batch_timeout": 1 } to "queues.consumers" in wrangler.jsonc, ` +
  "and `queue: tasks.queue` to your Worker's default export.";

/** Bindings of a kind that look like ours under another name: a hint for a misnamed one. */
function lookalikes(env: Record<string, unknown>, test: (value: unknown) => boolean, ours: string[]): string[] {
  return Object.keys(env).filter((key) => !ours.includes(key) && test(env[key]));
}

/** Every problem with `env` for durable tasks, each one sentence naming the binding and its fix. */
export function bindingProblems(env: unknown): string[] {
  if (!isRecord(env)) return ["The Worker's env is not an object: pass the env your fetch handler received."];
  const problems: string[] = [];
  const objectNames = Object.keys(DURABLE_OBJECTS);
  for (const [name, className] of Object.entries(DURABLE_OBJECTS)) {
    const value = env[name];
    if (isNamespace(value)) continue;
    const others = lookalikes(env, isNamespace, objectNames);
    const hint =
      others.length > 0
        ? ` (Durable Object bindings found: ${others.join(", ")}; is one of them meant to be ${name}?)`
        : "";
    problems.push(
      value === undefined
        ? `Missing binding ${name} (${className}): ${objectLine(name, className)}${hint}`
        : `Binding ${name} is not a Durable Object namespace: ${objectLine(name, className)}`,
    );
  }
  for (const [name, role] of Object.entries(QUEUES)) {
    const value = env[name];
    if (isQueue(value)) continue;
    const others = lookalikes(env, isQueue, Object.keys(QUEUES));
    const hint =
      others.length > 0 ? ` (queue bindings found: ${others.join(", ")}; is one of them meant to be ${name}?)` : "";
    problems.push(
      value === undefined
        ? `Missing queue binding ${name}, ${role}: ${queueLine(name)}${hint}`
        : `Binding ${name} is not a queue producer: ${queueLine(name)}`,
    );
  }
  // Webhooks are opt-in: a signing secret says the adopter wants them, and then they need their queue.
  if (typeof env["WEBHOOK_SECRET"] === "string" && env["WEBHOOK_SECRET"] !== "" && !isQueue(env["WEBHOOKS"]))
    problems.push(`WEBHOOK_SECRET is set but the WEBHOOKS queue is not bound: ${queueLine("WEBHOOKS")}`);
  return problems;
}

/**
 * `env` holds what the adopter lanes reach (bindingProblems found nothing): TASKS, PRINCIPALS, JOBS,
 * and WEBHOOKS when webhooks are on (STEPS is checked at a job's first fanOut). The template's other
 * bindings (SESSIONS, RATE_LIMITER) are never read on these lanes; vars are parsed by readSettings.
 */
export function hasTaskBindings(env: unknown): env is TaskRoutesBindings {
  return bindingProblems(env).length === 0;
}
