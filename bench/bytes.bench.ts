/**
 * `npm run bench -- bytes`: what adoption adds to a createMcpHandler Worker's upload, and of what
 * (test/e2e/support/adoption-bytes.ts). A size, not a time: no server is started, and the same
 * sources always bundle to the same bytes. docs/adopting.md ("What adoption costs in bytes") has the figures.
 */
import { adoptionBytes, bytesByOrigin } from "../test/e2e/support/adoption-bytes.ts";

type Report = (line: string) => void;

const kib = (bytes: number) => (bytes / 1024).toFixed(1);

export default async function bytes(report: Report): Promise<void> {
  const { asWritten, before, after, events } = await adoptionBytes();
  const line = (label: string, gzip: number, raw: number) =>
    report(`${label.padEnd(58)} ${gzip.toFixed(1).padStart(6)} KiB gzip ${raw.toFixed(0).padStart(5)} KiB raw`);
  report("wrangler deploy --dry-run, minified, every uploaded module (script and text modules):");
  line('starting point as written (import { z } from "zod")', asWritten.gzipKiB, asWritten.rawKiB);
  line('starting point, import * as z from "zod"', before.gzipKiB, before.rawKiB);
  line("adopted: one durable tool (mcp-task-worker/agents)", after.gzipKiB, after.rawKiB);
  line("adopted, with the Events extension (withEvents)", events.gzipKiB, events.rawKiB);
  report(
    `adoption adds ${(after.gzipKiB - asWritten.gzipKiB).toFixed(1)} KiB gzip over the starting point as written (goal ≤ 60), ${(after.gzipKiB - before.gzipKiB).toFixed(1)} over the same Worker with import * as z`,
  );
  report(
    `modules of the adopted upload: ${[...after.modules].map(([name, k]) => `${name} ${k.toFixed(1)} KiB gzip`).join(", ")}`,
  );
  const [was, is] = [bytesByOrigin(before), bytesByOrigin(after)];
  const rows = [...new Set([...was.keys(), ...is.keys()])]
    .map((origin) => ({ origin, before: was.get(origin) ?? 0, after: is.get(origin) ?? 0 }))
    .filter((row) => row.after - row.before >= 512)
    .sort((a, b) => b.after - b.before - (a.after - a.before));
  report("what the script gains, minified raw KiB by origin (after − before; gzip is not additive per file):");
  for (const row of rows)
    report(
      `  ${row.origin.padEnd(40)} +${kib(row.after - row.before).padStart(6)}  (${kib(row.before)} → ${kib(row.after)})`,
    );
}
