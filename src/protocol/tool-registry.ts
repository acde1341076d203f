/**
 * The tools the MCP handlers serve, as they ask for them: injected by the composition root
 * (src/index.ts, through serveMcp and each request's context), as src/jobs gets its `findTool`.
 */
import type { Tool } from "../jobs/define-tool";

export interface ToolRegistry {
  /** Every tool, in the order tools/list shows them. */
  readonly tools: readonly Tool[];
  find(name: string): Tool | undefined;
}
