/**
 * SessionObject: what an `Mcp-Session-Id` session needs across isolates (negotiated
 * version, client capabilities, subscriptions, its GET stream's event log).
 */
import { DurableObject } from "cloudflare:workers";

export class SessionObject extends DurableObject<Env> {}
