// The results webview in real chromium, under the host's CSP: a 100 000-row `show` renders a virtualised
// table that scrolls, the business-error banner shows, nested values expand, paging buttons post, raw JSON
// search highlights, response text is never markup, and an invalid message is ignored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT, bigMessages, launchChromium, servePanelPage, type PanelPage } from './panelBrowserPage';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { encodeShowRest, encodeViewModel } from '../../src/core/results/wire';
import { Redactor } from '../../src/core/secrets/redact';

/** What these tests read of a page's element (the DOM's own types are not in this project's lib). */
interface ElementSeen { scrollTop: number; readonly offsetHeight: number; getAttribute(name: string): string | null }

const ROWS = 100_000;
const ROW_HEIGHT = 22;
const SHOTS = join(ROOT, 'test-output/screenshots');
const shot = (name: string) => join(SHOTS, `${name}.png`);

let browser: Browser | undefined;
let server: PanelPage | undefined;
let page: Page;
const consoleErrors: string[] = [];

// The page's global as this test sees it (the node tsconfig has no DOM lib; the callbacks run in the page).
type PageWindow = {
  __posted: { type: string }[];
  __state: unknown;
  __warnings: string[];
  __pwned?: unknown;
  postMessage(message: unknown, targetOrigin: string): void;
};

before(async () => {
  server = await servePanelPage();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.goto(server.url);
  await page.waitForFunction(() => (globalThis as unknown as PageWindow).__posted.some((m) => m.type === 'ready'));
  const json = JSON.stringify(bigMessages(ROWS));
  await page.evaluate((payload) => { for (const m of JSON.parse(payload) as unknown[]) (globalThis as unknown as PageWindow).postMessage(m, '*'); }, json);
  await page.locator('.rows .grid-row').first().waitFor();
  // The first screen comes from the show's head of the rows; the rest from its showRest.
  await page.locator(`.table[data-rows-loaded="${ROWS}"]`).waitFor();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const posted = () => page.evaluate(() => (globalThis as unknown as PageWindow).__posted.map((m) => m.type));

void test('100 000 rows: only the visible window is in the DOM, the spacer holds the full height', async () => {
  const rendered = await page.locator('.rows .grid-row').count();
  assert.ok(rendered > 10 && rendered < 100, `${rendered} rows in the DOM`);
  assert.equal(await page.locator('.spacer').evaluate((e: ElementSeen) => e.offsetHeight), ROWS * ROW_HEIGHT);
  assert.equal(await page.locator('.rows .grid-row').first().locator('.cell').nth(1).textContent(), '100000');
  assert.equal(await page.getByTestId('status').textContent(), '200 OK');
  const headers = await page.locator('.grid-row.header .cell').allTextContents();
  assert.deepEqual(headers.slice(0, 4), ['#', 'OrderID', 'CustomerID', 'Total']);
  await page.getByTestId('paging-state').filter({ hasText: 'Page number · 1 page · 100,000 rows' }).waitFor();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: shot('panel-table') });
});

void test('the business-error banner shows the code, both catalogue meanings of 14 and the 200 note', async () => {
  const banner = page.getByTestId('business-banner');
  await banner.waitFor();
  const text = (await banner.textContent()) ?? '';
  assert.match(text, /Code 14/);
  assert.match(text, /Invalid SessionID · or · Invalid Question ID/);
  assert.match(text, /2 published meanings in the SurveyApi catalogue/);
  assert.match(text, /HTTP status was 200 OK/);
});

void test('scrolling to the middle and the end renders those rows, and only a window of them', async () => {
  for (const target of [50_000, ROWS - 1]) {
    await page.locator('.viewport').evaluate((e: ElementSeen, top: number) => (e.scrollTop = top), target * ROW_HEIGHT);
    await page.locator(`.rows .grid-row[data-row="${target}"]`).waitFor();
    const rendered = await page.locator('.rows .grid-row').count();
    assert.ok(rendered < 100, `${rendered} rows in the DOM at row ${target}`);
    assert.equal(await page.locator(`.grid-row[data-row="${target}"] .cell`).nth(1).textContent(), String(100_000 + target));
  }
  await page.locator('.viewport').evaluate((e: ElementSeen) => (e.scrollTop = 0));
  await page.locator('.rows .grid-row[data-row="0"]').waitFor();
});

void test('keyboard: arrows move the selected row and keep it in view, Enter asks the host to open it', async () => {
  await page.locator('.grid-row[data-row="0"] .cell.index').click();
  await page.locator('.viewport').press('Control+End');
  await page.locator(`.grid-row.selected[data-row="${ROWS - 1}"]`).waitFor();
  await page.locator('.viewport').press('ArrowUp');
  await page.locator(`.grid-row.selected[data-row="${ROWS - 2}"]`).waitFor();
  await page.locator('.viewport').press('Enter');
  assert.deepEqual(await page.evaluate(() => (globalThis as unknown as PageWindow).__posted.at(-1)), { type: 'openRow', index: ROWS - 2 });
  await page.locator('.viewport').press('Control+Home');
  await page.locator('.grid-row.selected[data-row="0"]').waitFor();
});

void test('response text renders as text: markup in a cell is shown literally and never runs', async () => {
  const note = await page.locator('.grid-row[data-row="2"] .cell').nth(9).textContent();
  assert.equal(note, '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>');
  assert.equal(await page.locator('.rows img, .rows script').count(), 0);
  assert.equal(await page.evaluate(() => (globalThis as unknown as PageWindow).__pwned), undefined);
});

void test('a nested value expands into the detail view; Open row and Copy post to the host', async () => {
  await page.locator('.grid-row[data-row="1"] .cell.nested').first().click();
  const detail = page.getByTestId('detail');
  await detail.waitFor();
  assert.match((await detail.locator('.detail-title').textContent()) ?? '', /Row 2 · Address/);
  assert.equal(await detail.locator('pre').textContent(), '{\n  "City": "Lyon",\n  "Zip": "10001"\n}');
  await detail.getByRole('button', { name: 'Copy' }).click();
  await detail.getByRole('button', { name: 'Open row as JSON' }).click();
  const sent = await page.evaluate(() => (globalThis as unknown as PageWindow).__posted.slice(-2));
  assert.deepEqual(sent, [{ type: 'copy', text: '{\n  "City": "Lyon",\n  "Zip": "10001"\n}' }, { type: 'openRow', index: 1 }]);
  await page.screenshot({ path: shot('panel-detail') });
  await detail.getByRole('button', { name: 'Close' }).click();
});

void test('paging: Next page and All pages post requests; appended rows grow the table; progress shows', async () => {
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.locator('select').selectOption('csv');
  await page.getByRole('button', { name: /All pages/ }).click();
  const sent = await page.evaluate(() => (globalThis as unknown as PageWindow).__posted.slice(-2));
  assert.deepEqual(sent, [{ type: 'nextPage' }, { type: 'allPages', format: 'csv' }]);

  const paging = { style: 'page-number', styleLabel: 'Page number', pages: 2, rows: ROWS + 2, canContinue: true, walking: false };
  await page.evaluate((p) => {
    const rowsJson = JSON.stringify([{ OrderID: 1, Extra: 'new column' }, { OrderID: 2 }]);
    (globalThis as unknown as PageWindow).postMessage({ type: 'appendRows', rowCount: 2, rowsJson, columns: undefined, paging: p }, '*'); // invalid: columns missing
    (globalThis as unknown as PageWindow).postMessage({ type: 'appendRows', rowCount: 3, rowsJson, columns: [], paging: p }, '*'); // invalid: wrong count
    (globalThis as unknown as PageWindow).postMessage({ type: 'appendRows', rowCount: 2, rowsJson, columns: [{ key: 'OrderID', label: 'OrderID' }, { key: 'Extra', label: 'Extra' }], paging: p }, '*');
    (globalThis as unknown as PageWindow).postMessage({ type: 'progress', pages: 7, rows: 700_000, rowsPerSecond: 91_234, elapsedMs: 7600, file: 'exports/orders.csv' }, '*');
  }, paging);
  await page.getByTestId('progress').filter({ hasText: '7 pages · 700,000 rows · 91,234 rows/s' }).waitFor();
  // A walk whose total is known, waiting on the server: the same words as the CLI's progress line.
  await page.evaluate(() => (globalThis as unknown as PageWindow).postMessage({ type: 'progress', pages: 8, rows: 800_000, rowsPerSecond: 90_000, elapsedMs: 8800, pagesPerSecond: 0.9, totalPages: 20, timeLeftMs: 13_300, waits: 1, waitedMs: 2000, waiting: 'rate limited: waiting 12 s', file: 'exports/orders.csv' }, '*'));
  await page.getByTestId('progress').filter({ hasText: 'page 8 of 20 · 800,000 rows · 0.9 pages/s · 90,000 rows/s · about 13 s left · rate limited: waiting 12 s' }).waitFor();
  assert.equal(await page.locator('.spacer').evaluate((e: ElementSeen) => e.offsetHeight), (ROWS + 2) * ROW_HEIGHT);
  assert.equal(await page.getByTestId('row-count').textContent(), '100,002 rows');
  const headers = await page.locator('.grid-row.header .cell').allTextContents();
  assert.deepEqual([headers[1], headers[2], headers.at(-1)], ['OrderID', 'CustomerID', 'Extra'], 'columns kept, the new one appended');
  assert.equal(await page.getByRole('button', { name: 'Stop' }).isEnabled(), true);
  assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
  await page.getByRole('button', { name: 'Stop' }).click();
  assert.deepEqual((await posted()).at(-1), 'stop');
  await page.evaluate((p) => (globalThis as unknown as PageWindow).postMessage({ type: 'walkEnded', ok: true, message: 'Stopped after 7 pages; exports/orders.csv holds 700 000 rows.', paging: { ...p, canContinue: false, endReason: 'stopped' } }, '*'), paging);
  await page.getByTestId('progress').filter({ hasText: 'Stopped after 7 pages' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Stop' }).isDisabled(), true);
  // Export names the response on screen, so the host exports its rows and no other response's.
  await page.getByRole('button', { name: 'Export rows' }).click();
  assert.deepEqual(await page.evaluate(() => (globalThis as unknown as PageWindow).__posted.at(-1)), { type: 'export', format: 'csv', responseId: `big-${ROWS}` });
});

void test('raw JSON search highlights matches with <mark> elements and steps through them', async () => {
  await page.getByRole('tab', { name: 'Raw JSON' }).click();
  await page.locator('.raw-view .note').filter({ hasText: 'Showing the first' }).waitFor();
  await page.getByLabel('Search the body').fill('Lyon');
  await page.locator('pre.raw mark').first().waitFor();
  assert.equal(await page.locator('pre.raw mark').first().textContent(), 'Lyon');
  assert.match((await page.getByRole('search').locator('.counter').textContent()) ?? '', /^1 \/ \d+ matches$/);
  await page.getByLabel('Search the body').press('Enter');
  assert.match((await page.getByRole('search').locator('.counter').textContent()) ?? '', /^2 \//);
  assert.equal(await page.locator('pre.raw mark.current').count(), 1);
  await page.screenshot({ path: shot('panel-raw-search') });
  await page.getByLabel('Search the body').fill('no-such-text');
  await page.locator('.counter').filter({ hasText: 'no match' }).waitFor();
  assert.equal(await page.locator('pre.raw mark').count(), 0);
});

void test('state persisted through setState holds view settings only, no response content', async () => {
  const state = await page.evaluate(() => JSON.stringify((globalThis as unknown as PageWindow).__state));
  assert.match(state, /"tab":"raw"/);
  assert.deepEqual(Object.keys(JSON.parse(state) as object).sort(), ['responseId', 'scrollTop', 'search', 'tab']);
  assert.doesNotMatch(state, /OrderID|Austin|Bearer|Authorization/);
});

void test('the panel follows the editor theme through --vscode-* variables (a light theme here)', async () => {
  await page.getByRole('tab', { name: 'Table' }).click();
  const colours = await page.evaluate(() => {
    const g = globalThis as unknown as { document: { documentElement: { style: { setProperty(k: string, v: string): void } }; body: unknown }; getComputedStyle(e: unknown): { backgroundColor: string; color: string } };
    const theme: Record<string, string> = {
      '--vscode-editor-background': '#ffffff', '--vscode-foreground': '#3b3b3b', '--vscode-sideBar-background': '#f3f3f3',
      '--vscode-panel-border': '#e5e5e5', '--vscode-descriptionForeground': '#717171', '--vscode-list-hoverBackground': '#f2f2f2',
      '--vscode-debugTokenExpression-string': '#a31515', '--vscode-debugTokenExpression-number': '#098658', '--vscode-textLink-foreground': '#006ab1',
      '--vscode-inputValidation-warningBackground': '#f6f5d2', '--vscode-input-background': '#ffffff', '--vscode-input-foreground': '#3b3b3b',
    };
    for (const [k, v] of Object.entries(theme)) g.document.documentElement.style.setProperty(k, v);
    const body = g.getComputedStyle(g.document.body);
    return { background: body.backgroundColor, color: body.color };
  });
  assert.deepEqual(colours, { background: 'rgb(255, 255, 255)', color: 'rgb(59, 59, 59)' });
  await page.screenshot({ path: shot('panel-table-light') });
});

void test('an invalid message is ignored with a warning; the panel keeps working; no CSP violation', async () => {
  await page.evaluate(() => {
    (globalThis as unknown as PageWindow).postMessage({ type: 'show', viewModel: { status: 'nope' } }, '*');
    (globalThis as unknown as PageWindow).postMessage('not even an object', '*');
  });
  await page.waitForFunction(() => (globalThis as unknown as PageWindow).__warnings.length >= 4);
  const warnings = await page.evaluate(() => (globalThis as unknown as PageWindow).__warnings);
  assert.ok(warnings.every((w) => w.includes('ignored a')), warnings.join('\n'));
  await page.getByRole('tab', { name: 'Table' }).click();
  assert.equal(await page.getByTestId('status').textContent(), '200 OK');
  assert.deepEqual(consoleErrors, []);
});

void test('a show whose rest of rows does not decode keeps its first screen, says so, and counts what it has', async () => {
  const [show, rest] = bigMessages(1000, 'broken-tail');
  const broken = JSON.stringify([show, { ...rest, rowsJson: '[{"OrderID": 1' }]);
  await page.evaluate((payload) => { for (const m of JSON.parse(payload) as unknown[]) (globalThis as unknown as PageWindow).postMessage(m, '*'); }, broken);
  await page.locator('.table[data-rows-loaded="200"]').waitFor();
  assert.equal(await page.getByTestId('row-count').textContent(), '200 rows');
  assert.equal(await page.locator('.spacer').evaluate((e: ElementSeen) => e.offsetHeight), 200 * ROW_HEIGHT);
  const warnings = await page.evaluate(() => (globalThis as unknown as PageWindow).__warnings);
  assert.match(warnings.at(-1) ?? '', /last 800 rows of the response did not decode; showing the first 200/);
});

void test('the rest of an earlier response (stale) is dropped; the shown one waits for its own rest, then has every row', async () => {
  const [, staleRest] = bigMessages(300, 'earlier');
  const [show, rest] = bigMessages(400, 'current');
  const send = (messages: unknown[]) => page.evaluate((payload) => { for (const m of JSON.parse(payload) as unknown[]) (globalThis as unknown as PageWindow).postMessage(m, '*'); }, JSON.stringify(messages));
  await send([show]);
  await page.locator('.rows .grid-row').first().waitFor();
  await send([staleRest]);
  await page.waitForFunction(() => (globalThis as unknown as PageWindow).__warnings.at(-1)?.includes('ignored the rest of another response') === true);
  assert.equal(await page.locator('.table').getAttribute('data-rows-loaded'), null, 'still waiting for its own rest');
  assert.equal(await page.getByTestId('row-count').textContent(), '400 rows');
  await send([rest]);
  await page.locator('.table[data-rows-loaded="400"]').waitFor();
  await page.getByRole('tab', { name: 'Raw JSON' }).click();
  assert.match(await page.locator('pre.raw').textContent() ?? '', /"OrderID": 100000/);
  await page.getByRole('tab', { name: 'Table' }).click();
});

void test('a column only later rows have joins the header when the rest arrives, after the columns of the first screen', async () => {
  const rows: Record<string, unknown>[] = Array.from({ length: 250 }, (_, i) => ({ OrderID: i, Status: 'ok' }));
  rows[240] = { OrderID: 240, Status: 'ok', LateField: 'late' };
  const text = JSON.stringify({ Data: rows });
  const vm = buildResultsViewModel({
    requestKey: 'k', id: 'late-columns', request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: {} },
    response: { status: 200, statusText: 'OK', headers: {}, bodyText: '', timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: text.length },
    parsedBody: { value: JSON.parse(text), chars: text.length, redaction: new Redactor() },
  });
  const send = (message: unknown) => page.evaluate((m) => (globalThis as unknown as PageWindow).postMessage(m, '*'), JSON.parse(JSON.stringify(message)) as unknown);
  await send({ type: 'show', viewModel: encodeViewModel(vm) });
  await page.locator('.rows .grid-row').first().waitFor();
  assert.deepEqual(await page.locator('.grid-row.header .cell').allTextContents(), ['#', 'OrderID', 'Status']);
  await send(encodeShowRest(vm));
  await page.locator('.table[data-rows-loaded="250"]').waitFor();
  assert.deepEqual(await page.locator('.grid-row.header .cell').allTextContents(), ['#', 'OrderID', 'Status', 'LateField']);
});
