/**
 * Messages without the `queue` tag, as the template's builds before commit aa61ca9 wrote them (0.1.0,
 * later, already tags every body): each kind is told by its shape. Accepted by this release and at least the next one
 * (docs/queues.md, "Messages without the tag"), so an upgrade drains what the old Worker queued,
 * webhook retries scheduled hours out included. The shapes are copied here, frozen: they are what the
 * old release sent, whatever today's schemas become. Their values are the consumers' to check.
 */
import * as z from "zod";
import type { QueueKind } from "./routing";

/** The field sets differ, so at most one strict shape matches a body. */
const UNTAGGED_SHAPES: readonly (readonly [QueueKind, z.ZodType])[] = [
  [
    "job",
    z.strictObject({
      v: z.literal(1),
      principal: z.string(),
      taskId: z.string(),
      started: z.literal(true).optional(),
    }),
  ],
  [
    "step",
    z.strictObject({
      v: z.literal(1),
      principal: z.string(),
      taskId: z.string(),
      fanOut: z.string(),
      index: z.number(),
    }),
  ],
  [
    "webhook",
    z.strictObject({
      v: z.literal(1),
      id: z.string(),
      principal: z.string(),
      taskId: z.string(),
      url: z.string(),
      type: z.string(),
      body: z.string(),
    }),
  ],
];

/** The consumer an untagged body (a build before aa61ca9) was meant for, by its shape; undefined for any other body. */
export function untaggedKindOf(body: unknown): QueueKind | undefined {
  return UNTAGGED_SHAPES.find(([, shape]) => shape.safeParse(body).success)?.[0];
}
