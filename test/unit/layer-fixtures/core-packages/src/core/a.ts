import type { Result } from "@modelcontextprotocol/sdk/types.js";

export type A = Result;
