import { now } from "../shims/clock";

export const leasedAt = now;
