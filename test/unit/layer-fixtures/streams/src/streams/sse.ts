import { LIMIT } from "../config";

export const frameLimit = LIMIT;
