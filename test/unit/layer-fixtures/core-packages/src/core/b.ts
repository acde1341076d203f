import type { Context } from "hono";

export type B = Context;
