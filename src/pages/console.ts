/** The console's page (`GET /`, src/http/console.ts), fixed at build time. */
import page from "../../dist/pages/console.html";

export const consolePage: string = page;
