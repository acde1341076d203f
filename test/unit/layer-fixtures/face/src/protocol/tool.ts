import { id } from "../core/model/ids";

export const tool = id;
