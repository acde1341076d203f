/**
 * Workflow-backed tools (docs/workflows.md): `defineWorkflowTool` (src/workflows/define-workflow-tool.ts)
 * declares the tool, `TaskWorkflow` is the base class of its Workflow, `TaskLink` is what the Workflow's code talks to its task with.
 */
export { TaskWorkflow } from "./task-workflow";
export { TaskLink, type ProgressReport } from "./task-link";
export type { TaskWorkflowParams } from "./names";
