import { app } from "../http/app";

export const gateway = app;
