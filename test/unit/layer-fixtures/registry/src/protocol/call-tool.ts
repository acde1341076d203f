// Breaks engine-not-to-template: the protocol finds tools in the template's registry instead of its request context.
import { findTool } from "../tools/registry";

export const known = (name: string): boolean => findTool(name) !== undefined;
