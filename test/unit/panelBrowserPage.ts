// Serves the results webview outside the editor, for the browser test and the first-rows benchmark: the
// current src/webview bundled exactly as scripts/build.mjs does, inside the very HTML shell (and CSP) the
// host builds, on 127.0.0.1 with a free port. A nonce'd stub stands in for acquireVsCodeApi and records
// what the page posts and persists. Not a test file itself (no .test.ts suffix).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { buildResultsHtml, createNonce } from '../../src/extension/results/html';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { meaningsOf } from '../../src/core/catalog/errorCatalogues';
import type { HostToWebviewMessage, ResultsViewModel, ResultsViewModelWire } from '../../src/protocol/webviewMessages';
import { encodeShowRest, encodeViewModel } from '../../src/core/results/wire';

export const CHROMIUM = '/usr/bin/chromium';
/** The repository root, whatever the current directory. */
export const ROOT = resolve(__dirname, '../..');
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

/** Fails (never skips) when chromium is missing: `npm test` installs it before the node suites. */
export function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable()) {
    return Promise.reject(new Error(`${CHROMIUM} is not installed: run bash scripts/ensure-debian-packages.sh chromium (npm test does it first)`));
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** Bundles src/webview/main.ts in memory with the options of scripts/build.mjs (browser, es2022, iife). */
async function bundleWebview(): Promise<{ js: string; css: string }> {
  const result = await esbuild.build({
    entryPoints: [join(ROOT, 'src/webview/main.ts')],
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    write: false,
    outdir: join(ROOT, 'out/panel-under-test'),
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))?.text;
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'))?.text;
  if (js === undefined || css === undefined) throw new Error('the webview bundle produced no .js or .css');
  return { js, css };
}

// Runs before the bundle: what the editor provides to a webview, reduced to a recorder.
const STUB = `
window.__posted = [];
window.__state = undefined;
window.__warnings = [];
const warn = console.warn.bind(console);
console.warn = (...args) => { window.__warnings.push(args.map(String).join(' ')); warn(...args); };
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
  getState: () => window.__state,
  setState: (s) => { window.__state = JSON.parse(JSON.stringify(s)); },
});`;

export interface PanelPage {
  readonly url: string;
  close(): Promise<void>;
}

export async function servePanelPage(): Promise<PanelPage> {
  const bundle = await bundleWebview();
  let html = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const [type, body] =
      path === '/webview.js' ? ['text/javascript', bundle.js] : path === '/webview.css' ? ['text/css', bundle.css] : path === '/' ? ['text/html', html] : ['text/plain', ''];
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(body ? 200 : 404, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const nonce = createNonce();
  html = buildResultsHtml({ cspSource: origin, nonce, scriptUri: `${origin}/webview.js`, styleUri: `${origin}/webview.css` }).replace(
    `<script nonce="${nonce}" src=`,
    `<script nonce="${nonce}">${STUB}</script>\n<script nonce="${nonce}" src=`,
  );
  return {
    url: `${origin}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A SurveyApi-like 200 carrying a code-14 business failure and `rowCount` order rows with nested values (≤ HEAD_ROWS: one message holds them). */
export function bigViewModel(rowCount: number): ResultsViewModelWire {
  return encodeViewModel(bigHostViewModel(rowCount));
}

/** The same response as the host posts it: `show`, then (more than HEAD_ROWS rows) its `showRest`. */
export function bigMessages(rowCount: number, id = `big-${rowCount}`): HostToWebviewMessage[] {
  const vm = { ...bigHostViewModel(rowCount), id };
  const rest = encodeShowRest(vm);
  return [{ type: 'show', viewModel: encodeViewModel(vm) }, ...(rest ? [rest] : [])];
}

/** A SurveyApi-like page's rows of orders (nested values, one hostile string at index 2). */
export function orderRows(rowCount: number): Record<string, unknown>[] {
  return Array.from({ length: rowCount }, (_, i) => ({
    OrderID: 100_000 + i,
    CustomerID: `C-${(i * 7919) % 100_000}`,
    Total: Math.round(((i * 37) % 10_000) * 1.37) / 100,
    Currency: i % 3 === 0 ? 'EUR' : 'USD',
    Status: i % 5 === 0 ? 'Cancelled' : 'Completed',
    PlacedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    Address: { City: i % 2 ? 'Lyon' : 'Austin', Zip: String(10_000 + (i % 89_999)) },
    Lines: [{ Sku: `SKU-${i % 977}`, Qty: (i % 4) + 1 }],
    Note: i === 2 ? '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>' : null,
  }));
}

function bigHostViewModel(rowCount: number): ResultsViewModel {
  const rows = orderRows(rowCount);
  const body = { ResponseStatus: false, Errors: [{ ErrorCode: 14, ErrorDescription: 'Invalid' }], TotalOrders: rowCount * 3, Data: rows };
  const bodyText = JSON.stringify(body);
  return buildResultsViewModel({
    requestKey: 'bench.http#orders',
    title: 'POST /api/Transaction/GetOrdersByCustomer',
    request: { method: 'POST', url: 'http://127.0.0.1:8080/api/Transaction/GetOrdersByCustomer?pageNumber=1&pageSize=100000', headers: { Authorization: 'Bearer ***', 'Content-Type': 'application/json' } },
    response: {
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bodyText.length) },
      bodyText,
      timing: { startedAt: Date.UTC(2026, 10, 22, 10, 0, 0), firstByteMs: 38, totalMs: 412 },
      sizeBytes: bodyText.length,
    },
    catalogue: 'SurveyApi',
    businessErrors: { convention: 'ResponseStatus + Errors[{ErrorCode, ErrorDescription}]', failed: true, failures: [{ code: 14, message: 'Invalid', meanings: meaningsOf('SurveyApi', 14), ambiguous: true }] },
    paging: { style: 'page-number', styleLabel: 'Page number', pages: 1, rows: rowCount, canContinue: true, walking: false },
    rowsPath: 'Data',
    id: `big-${rowCount}`,
  });
}
