import type { JsonObject } from "../json";

export type Frame = JsonObject;
