/**
 * The template's plain HTTP view of tasks (`/tasks`, `/tasks/{id}`, `/events`, `/input`, `/cancel`,
 * src/http/task-routes.ts) in an adopter's Worker, under the caller tasks.fetch resolved.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { TaskRoutesEnv } from "../http/env";
import { taskRoutes } from "../http/task-routes";
import { currentScope } from "./scope";

export const taskView = new Hono<TaskRoutesEnv>();

taskView.use("*", async (c, next) => {
  const engine = await currentScope()?.engine();
  // tasks.fetch opened the engine before it routed here; no scope means a call from elsewhere.
  if (!engine?.ok) return c.json({ error: "internal_error", message: "Task view reached outside tasks.fetch." }, 500);
  c.set("requestId", crypto.randomUUID());
  c.set("settings", engine.settings);
  c.set("principal", engine.origin.principal);
  await next();
});

taskView.route("/tasks", taskRoutes);

taskView.notFound((c) =>
  c.json({ error: "not_found", message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}.` }, 404),
);

taskView.onError((error, c) => {
  if (error instanceof HTTPException) return error.getResponse();
  const requestId = c.get("requestId");
  console.error("unhandled error", requestId, error);
  return c.json({ error: "internal_error", message: "Internal error.", requestId }, 500);
});
