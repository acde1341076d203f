import { id } from "../core/ids";

export const extra = id;
