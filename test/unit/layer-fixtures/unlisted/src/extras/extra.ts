import { id } from "../core";

export const extra = id;
