/** The hono environment shared by every route: bindings plus what middleware resolves. */
import type { Settings } from "../config";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    settings: Settings;
    principal: string;
    requestId: string;
  };
}
