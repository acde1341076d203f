/**
 * What the task console costs the server, on one local `wrangler dev`:
 * - the page itself (GET /): bytes, raw and gzipped, and its latency as a ratio to the bare route;
 * - the list it polls once per poll interval to see new tasks (GET /tasks, the first page of 50
 *   from a principal with 200 tasks) as a ratio to the bare route: the price of polling instead
 *   of a principal-level feed.
 * All three are sampled in turn on one kept-alive node:http connection, so they share the load.
 */
import { gzipSync } from "node:zlib";
import { loadavg } from "node:os";
import { roundOrder } from "./order.ts";
import { createTask, httpGet, median, ms, ratio, serverLine, startBenchServer, summarize } from "./support.ts";

const TASKS = 200;
const SAMPLES = 200;
const WARMUP = 20;

export default async function consoleSection(report: (line: string) => void): Promise<void> {
  const server = await startBenchServer();
  try {
    const { url } = server;
    report(
      `${serverLine(server)}; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    const page = Buffer.from(await (await fetch(`${url}/`)).arrayBuffer());
    report(
      `page GET /: ${(page.byteLength / 1024).toFixed(1)} KiB, ${(gzipSync(page).byteLength / 1024).toFixed(1)} KiB gzipped (script, style and markup in one document)`,
    );

    for (let i = 0; i < TASKS; i += 20)
      await Promise.all(
        Array.from({ length: Math.min(20, TASKS - i) }, () =>
          createTask(url, "batch_process", { items: 1, secondsPerItem: 0 }),
        ),
      );
    const routes = { bare: `${url}/health`, page: `${url}/`, list: `${url}/tasks` };
    for (let i = 0; i < WARMUP; i++) for (const target of Object.values(routes)) await httpGet(target);
    const samples = { bare: [] as number[], page: [] as number[], list: [] as number[] };
    const order = ["bare", "page", "list"] as const;
    // Each round in its own order (bench/order.ts), so no route always follows the same one.
    for (let i = 0; i < SAMPLES; i++)
      for (const k of roundOrder(order.length, i)) {
        const name = order[k] ?? "bare";
        samples[name].push(await httpGet(routes[name]));
      }
    const [b, p, l] = [summarize(samples.bare), summarize(samples.page), summarize(samples.list)];
    report(`bare GET /health (n=${b.n}): p50 ${ms(b.p50)}  p99 ${ms(b.p99)}`);
    report(`page GET /       (n=${p.n}): p50 ${ms(p.p50)}  p99 ${ms(p.p99)}  (p50 ${ratio(p.p50 / b.p50)} bare)`);
    report(
      `list GET /tasks  (n=${l.n}, first page of 50 of ${TASKS}): p50 ${ms(l.p50)}  p99 ${ms(l.p99)}  (p50 ${ratio(l.p50 / b.p50)} bare)`,
    );
    report(
      `  one open console polls the list once per poll interval (POLL_INTERVAL_MS, 1 s by default): ${ratio(median(samples.list) / median(samples.bare))} a bare request, once a second, per visible tab`,
    );
  } finally {
    await server.stop();
  }
}
