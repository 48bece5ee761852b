// Benchmark: a walk paced by the server's quota. The sandbox's booking list at 1 booking a page (2 000
// pages, page headers) under `--rate-limit N` (N requests a second, fixed one-second windows, RateLimit-*
// and X-RateLimit-* headers on every answer, 429 + Retry-After over the quota), walked by the product's
// walker (src/core/paging/walker.ts: the wait turn of src/core/http/serverWaits.ts). The quota's minimum
// time is pages / N seconds (a walk may come in a little under it: its first window is already partly
// gone when it starts, and is spent whole); goal (issue 35): at most 1.1 times that. Also the same walk
// unlimited, for what the walk itself costs. Prints figures; asserts only that every walk is complete.
//   node --import tsx bench/rateLimit.ts [--pages 2000] [--per-second 100]
import { memorySink } from '../src/core/export/sink';
import { closeHttpAgents } from '../src/core/http/client';
import { type WalkResult } from '../src/core/paging';
import { walk } from '../src/core/paging/walker';
import { startSandbox } from '../src/sandbox';
import type { LoggedRequest } from '../src/sandbox/shared/requestLog';
import { arg, loadNote, mb, printRow } from './lib/measure';

interface Run { readonly seconds: number; readonly result: WalkResult; readonly refusals: number; readonly requests: number; readonly peakRssMB: number }

async function timedWalk(pages: number, perSecond: number): Promise<Run> {
  const sandbox = await startSandbox({ bookings: pages, bookingsPerPage: 1, rateLimitPerSecond: perSecond });
  try {
    const base = sandbox.descriptor.booking.baseUrl;
    let peak = process.memoryUsage().rss;
    const started = performance.now();
    const result = await walk({ method: 'GET', url: `${base}/bookings`, headers: { Accept: 'application/json' } }, {
      plan: { style: 'page-headers', options: {}, source: 'directive' }, sink: memorySink(), maxPages: pages + 10,
      onPage: () => { peak = Math.max(peak, process.memoryUsage().rss); },
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.verdict !== 'complete' || result.pages !== pages) throw new Error(`the walk did not complete: ${result.message}`);
    const log = (await (await fetch(`${base}/__sandbox/requests`)).json()) as LoggedRequest[];
    return { seconds, result, refusals: log.filter((r) => r.status === 429).length, requests: log.length, peakRssMB: peak / 1024 / 1024 };
  } finally {
    await sandbox.close();
    await closeHttpAgents();
  }
}

async function main(): Promise<void> {
  const pages = arg('pages', 2000);
  const perSecond = arg('per-second', 100);
  const minimum = pages / perSecond;
  const free = await timedWalk(pages, 0);
  const paced = await timedWalk(pages, perSecond);
  const ratio = paced.seconds / minimum;
  console.log(`rateLimit: ${pages} pages of page headers, quota ${perSecond} requests a second; ${loadNote()}`);
  console.log(`  unlimited   ${free.seconds.toFixed(2)} s  (${(pages / free.seconds).toFixed(0)} pages/s)`);
  console.log(`  at quota    ${paced.seconds.toFixed(2)} s  (${(pages / paced.seconds).toFixed(1)} pages/s); ${paced.result.waits} waits, ${(paced.result.waitedMs / 1000).toFixed(1)} s waited; the server saw ${paced.requests} requests, ${paced.refusals} refused`);
  printRow({
    measure: `${pages}-page walk at a quota of ${perSecond}/s (rateLimit.ts)`,
    ours: `${paced.seconds.toFixed(2)} s (${paced.refusals} refusals, ${paced.result.waits} waits)`,
    baseline: `quota minimum ${minimum.toFixed(1)} s (unlimited walk ${free.seconds.toFixed(2)} s)`,
    ratio: `${ratio.toFixed(3)}×`,
    peakRss: mb(paced.peakRssMB),
    goal: '≤ 1.1× the quota minimum',
    met: ratio <= 1.1,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
