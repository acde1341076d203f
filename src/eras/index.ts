/**
 * The protocol eras on one `/mcp`: the table keyed by version, and the router that sends each
 * request to the row its version names. src/index.ts lists the rows.
 */
export type { EraAdapter, Framing } from "./era";
export { eraTable, type EraTable } from "./table";
export { routeByEra } from "./router";
