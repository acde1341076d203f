/**
 * Plain Node has no `cloudflare:workflows` either (vitest.unit.config.ts points it here): the package's
 * face loads the Workflow link (src/workflows/task-link.ts), which a unit test never runs.
 */
export class NonRetryableError extends Error {}
