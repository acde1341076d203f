/**
 * `_meta["mcp-task-worker/webhook"]` on a `tools/call`: `{ url, events? }`, checked when the
 * call arrives so a refused webhook never creates a task. By default the server POSTs every
 * terminal status and `input_required`; `events` may add `working` and `progress`.
 */
import * as z from "zod";
import { checkDestination } from "./destination";
import { decodeWebhookSecret } from "./sign";
import type { WebhookSettings } from "../config";

export const OPTIONAL_WEBHOOK_EVENTS = ["working", "progress", "partial"] as const;
export type OptionalWebhookEvent = (typeof OPTIONAL_WEBHOOK_EVENTS)[number];

export const WebhookRegistrationSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  events: z.array(z.enum(OPTIONAL_WEBHOOK_EVENTS)).max(10).optional(),
});

/** What the task keeps in `meta.webhook`: a checked URL and the opted-in extra events. */
export interface WebhookRegistration {
  url: string;
  events: OptionalWebhookEvent[];
}

export type RegistrationCheck = { ok: true; webhook: WebhookRegistration } | { ok: false; message: string };

const HELP = `Expected { "url": "https://…", "events"?: ["working", "progress", "partial"] } (terminal statuses and input_required are always sent).`;

export function parseWebhookRegistration(raw: unknown, settings: WebhookSettings): RegistrationCheck {
  if (settings.secret === undefined) {
    return {
      ok: false,
      message:
        "Webhooks are not available: this server has no WEBHOOK_SECRET configured to sign them. Drop the mcp-task-worker/webhook _meta key, or ask the operator to set WEBHOOK_SECRET.",
    };
  }
  if (!decodeWebhookSecret(settings.secret)) {
    return {
      ok: false,
      message:
        "Webhooks are not available: the server's WEBHOOK_SECRET is not whsec_<base64>. Ask the operator to fix it.",
    };
  }
  const parsed = WebhookRegistrationSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at "${issue.path.join(".")}"` : "";
    return {
      ok: false,
      message: `Invalid _meta["mcp-task-worker/webhook"]${where}: ${issue?.message ?? "malformed"}. ${HELP}`,
    };
  }
  const destination = checkDestination(parsed.data.url, settings);
  if (!destination.ok) return { ok: false, message: `Webhook URL refused: ${destination.reason}.` };
  return { ok: true, webhook: { url: destination.url.href, events: [...new Set(parsed.data.events ?? [])] } };
}

/** Reads back what `parseWebhookRegistration` stored in a task's meta (stored data is still checked). */
export function storedWebhook(value: unknown): WebhookRegistration | undefined {
  const parsed = WebhookRegistrationSchema.safeParse(value);
  return parsed.success ? { url: parsed.data.url, events: parsed.data.events ?? [] } : undefined;
}
