/**
 * The tools this server offers. To add a tool, write one file next to this one
 * with `defineTool` and add it to the list below: nothing else needs to change.
 */
import type { Tool } from "mcp-task-worker";
import batchProcess from "./batch-process";
import buildReport from "./build-report";
import countdown from "./countdown";
import deploy from "./deploy";
import echo from "./echo";
import externalJob from "./external-job";
import publishReport from "./publish-report";

export const tools: readonly Tool[] = [countdown, batchProcess, echo, externalJob, buildReport, deploy, publishReport];
