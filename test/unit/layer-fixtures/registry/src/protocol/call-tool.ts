// Breaks registry-injected: the protocol finds tools in the registry itself instead of its request context.
import { findTool } from "../tools/registry";

export const known = (name: string): boolean => findTool(name) !== undefined;
