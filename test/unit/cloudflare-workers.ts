/**
 * Plain Node has no `cloudflare:workers`, so vitest.unit.config.ts points it here. The core's face
 * (src/core/index.ts) re-exports the TaskObject, whose base class is the runtime's; a unit test loads
 * the face for its pure parts and never builds an object, so an empty base class is all it needs.
 * The package's face (src/package, which src/tools imports) adds TaskWorkflow, whose base is WorkflowEntrypoint.
 */
export class DurableObject {}
export class WorkflowEntrypoint {}
