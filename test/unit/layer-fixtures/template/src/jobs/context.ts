export class PermanentError extends Error {}
