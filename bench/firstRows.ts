// Response received → first rows painted, for a 100 000-row page: the host's work (the view model from
// the response, its encoding into the message), timed in node, plus the webview's in real chromium under
// the panel's CSP: from posting the `show` message (a structured clone into the page, as the editor
// delivers it) to the start of the animation frame that paints the first rows. Baseline in the same run:
// JSON.parse of the response body alone (node). Goal (issue 14): ≤ 1.5× the baseline. Asserts nothing.
//   npx tsx bench/firstRows.ts [rows] [runs]
import { bigViewModel, chromiumAvailable, launchChromium, servePanelPage } from '../test/unit/panelBrowserPage';
import { buildResultsViewModel } from '../src/core/results/viewModel';
import { encodeViewModel } from '../src/core/results/wire';
import { loadNote, msText, printRow } from './lib/measure';

const ROWS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 7);

interface Sample { firstRowsMs: number; paintedMs: number; allRowsMs: number; parseMs: number; cloneMs: number; domRows: number }

// The page's global as seen from here (the node tsconfig has no DOM lib; the callbacks run in the page).
type PageGlobal = {
  __payload: string;
  __posted: { type: string }[];
  postMessage(message: unknown, targetOrigin: string): void;
  document: { querySelector(s: string): { childElementCount: number; getAttribute(name: string): string | null } | null };
  MutationObserver: new (cb: () => void) => { observe(target: unknown, options: { childList?: boolean; attributes?: boolean }): void; disconnect(): void };
  requestAnimationFrame(cb: () => void): void;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

function hostSideCost(): { buildMs: number; encodeMs: number; parseMs: number; bodyMB: number } {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ OrderID: i, CustomerID: `C-${i}`, Total: i / 100, Currency: 'EUR', Status: 'Completed', PlacedAt: new Date(i * 60_000).toISOString(), Address: { City: 'Lyon', Zip: '10001' }, Lines: [{ Sku: 'SKU-1', Qty: 2 }], Note: null }));
  const bodyText = JSON.stringify({ ResponseStatus: true, Data: rows });
  const builds: number[] = [];
  const encodes: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < 5; i++) {
    const p0 = performance.now();
    JSON.parse(bodyText);
    parses.push(performance.now() - p0);
    const t0 = performance.now();
    const vm = buildResultsViewModel({
      requestKey: 'bench',
      request: { method: 'POST', url: 'http://127.0.0.1:1/api/x', headers: {} },
      response: { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: bodyText.length },
      rowsPath: 'Data',
    });
    const t1 = performance.now();
    encodeViewModel(vm);
    builds.push(t1 - t0);
    encodes.push(performance.now() - t1);
  }
  return { buildMs: median(builds), encodeMs: median(encodes), parseMs: median(parses), bodyMB: bodyText.length / 1024 / 1024 };
}

async function main(): Promise<void> {
  if (!chromiumAvailable()) {
    console.log('firstRows: /usr/bin/chromium is not installed; nothing measured');
    return;
  }
  const server = await servePanelPage();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    // tsx keeps function names with a __name() helper that does not exist inside the page.
    await page.evaluate('globalThis.__name = (fn) => fn');
    await page.waitForFunction(() => (globalThis as unknown as PageGlobal).__posted.some((m) => m.type === 'ready'));
    const big = JSON.stringify({ type: 'show', viewModel: bigViewModel(ROWS) });
    const small = JSON.stringify({ type: 'show', viewModel: bigViewModel(3) });
    await page.evaluate((payload) => ((globalThis as unknown as PageGlobal).__payload = payload), big);
    const payloadMB = big.length / 1024 / 1024;

    const samples: Sample[] = [];
    for (let run = 0; run < RUNS + 1; run++) {
      // Reset to a 3-row page, so every run renders the big table from scratch.
      await page.evaluate((payload) => (globalThis as unknown as PageGlobal).postMessage(JSON.parse(payload), '*'), small);
      await page.waitForFunction(() => (globalThis as unknown as PageGlobal).document.querySelector('.rows')?.childElementCount === 3);
      const sample = await page.evaluate(
        (rowCount) =>
          new Promise<Sample>((resolve) => {
            const g = globalThis as unknown as PageGlobal;
            const message = JSON.parse(g.__payload) as { viewModel: { table: { headJson: string; tailJson: string } } };
            const p0 = performance.now();
            JSON.parse(message.viewModel.table.headJson);
            JSON.parse(message.viewModel.table.tailJson);
            const parseMs = performance.now() - p0;
            const c0 = performance.now();
            structuredClone(message);
            const cloneMs = performance.now() - c0;
            const layer = g.document.querySelector('.rows')!;
            const table = g.document.querySelector('.table')!;
            const marks: { firstRowsMs?: number; paintedMs?: number; allRowsMs?: number; domRows?: number } = {};
            const done = () => {
              if (marks.paintedMs === undefined || marks.allRowsMs === undefined) return;
              resolve({ firstRowsMs: marks.firstRowsMs!, paintedMs: marks.paintedMs, allRowsMs: marks.allRowsMs, parseMs, cloneMs, domRows: marks.domRows! });
            };
            const t0 = performance.now();
            const rowsObserver = new g.MutationObserver(() => {
              if (layer.childElementCount <= 3) return;
              marks.firstRowsMs = performance.now() - t0;
              marks.domRows = layer.childElementCount;
              rowsObserver.disconnect();
              // The next animation frame is the one that paints these rows (rAF runs at its start, before
              // style, layout and paint; the panel decodes the rest of the rows only after that frame).
              g.requestAnimationFrame(() => {
                marks.paintedMs = performance.now() - t0;
                done();
              });
            });
            rowsObserver.observe(layer, { childList: true });
            const loadedObserver = new g.MutationObserver(() => {
              if (table.getAttribute('data-rows-loaded') !== String(rowCount)) return;
              marks.allRowsMs = performance.now() - t0;
              loadedObserver.disconnect();
              done();
            });
            loadedObserver.observe(table, { attributes: true });
            g.postMessage(message, '*');
          }),
        ROWS,
      );
      if (run > 0) samples.push(sample); // run 0 warms the JIT and is not counted
    }

    const host = hostSideCost();
    const pick = (k: keyof Sample) => median(samples.map((s) => s[k]));
    const firstRows = pick('firstRowsMs');
    console.log(`first rows of a ${ROWS.toLocaleString('en')}-row page (median of ${samples.length} runs, ${payloadMB.toFixed(1)} MB message, ${samples[0]?.domRows ?? 0} rows in the DOM)`);
    console.log(`  post → first rows in the DOM      ${ms(firstRows)}   (min ${ms(Math.min(...samples.map((s) => s.firstRowsMs)))}, max ${ms(Math.max(...samples.map((s) => s.firstRowsMs)))})`);
    console.log(`  post → frame that paints them     ${ms(pick('paintedMs'))}   (its requestAnimationFrame)`);
    console.log(`  post → every row decoded          ${ms(pick('allRowsMs'))}   (the rest of the page is parsed after the first screen)`);
    console.log(`  baseline: JSON.parse of the rows   ${ms(pick('parseMs'))}   (first rows = ${(firstRows / pick('parseMs')).toFixed(2)}× the parse)`);
    console.log(`  baseline: structured clone of msg  ${ms(pick('cloneMs'))}`);
    console.log(`host side for the same page size (${host.bodyMB.toFixed(1)} MB body, node, median of 3):`);
    console.log(`  buildResultsViewModel  ${ms(host.buildMs)}`);
    console.log(`  encodeViewModel        ${ms(host.encodeMs)}`);
    console.log(`  JSON.parse of the body ${ms(host.parseMs)}   (the baseline)`);
    const total = host.buildMs + host.encodeMs + pick('paintedMs');
    console.log(`  ${loadNote()}`);
    printRow({
      measure: `response received → first rows painted, ${ROWS.toLocaleString('en-US')}-row page, chromium`, ours: `${msText(total)} (host ${msText(host.buildMs + host.encodeMs)} + page ${msText(pick('paintedMs'))})`,
      baseline: `JSON.parse of the body ${msText(host.parseMs)}`, ratio: `${(total / host.parseMs).toFixed(2)}×`, peakRss: '-', goal: '≤ 1.5×', met: total <= 1.5 * host.parseMs,
    });
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
