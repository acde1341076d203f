export const LIMIT = 1;
