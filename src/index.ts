/**
 * The template's Worker: the package's engine (mcp-task-worker, src/package) serving this server's
 * tools (src/tools). The Durable Object and Workflow classes are exported here because wrangler
 * binds the classes of the main module.
 */
import { createTaskWorker } from "mcp-task-worker";
import { events } from "./event-types/registry";
import { tools } from "./tools/registry";

export { EventLogObject, PrincipalObject, RateLimiterObject, SessionObject, TaskObject } from "mcp-task-worker";
export { PublishReportWorkflow } from "./tools/publish-report-workflow";

export default createTaskWorker({ tools, events });
