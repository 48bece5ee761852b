// The results webview for screen readers and keyboard-only users, in real chromium under the host's CSP:
// the grid pattern over virtualised rows (counts, indices, active descendant, selection, sort), cells
// reached and opened with keys only, the tabs pattern, named icon buttons, the live region's sentences,
// focus kept (never on <body>) when a walk starts and ends or a button disables itself, and axe-core
// finding nothing. The same page in the real editor's four theme kinds: test/ui/accessibilityThemes.ui.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { bigMessages, bigViewModel, launchChromium, servePanelPage, type PanelPage } from './panelBrowserPage';
import { axeViolations, describeViolations } from '../ui/lib/axe.mjs';

/** What these tests read of a page's element (the DOM's own types are not in this project's lib). */
interface ElementSeen { scrollTop: number; readonly offsetHeight: number; getAttribute(name: string): string | null }

const ROWS = 1000;

let browser: Browser | undefined;
let server: PanelPage | undefined;
let page: Page;

type PageWindow = {
  __posted: { type: string }[];
  postMessage(message: unknown, targetOrigin: string): void;
  addEventListener(type: 'message', listener: () => void, options: { once: boolean }): void;
};
const PAGING = { style: 'page-number', styleLabel: 'Page number', pages: 1, rows: ROWS, canContinue: true, walking: false };

/**
 * Posts a message as the host does and returns once the panel has handled it: a posted message is
 * delivered on a later task, so an assertion right after postMessage could run before it. The listener
 * added here runs after the panel's own for the same message event (listeners run in the order added).
 */
const send = (message: unknown) => page.evaluate((m) => new Promise<void>((resolve) => {
  const w = globalThis as unknown as PageWindow;
  w.addEventListener('message', () => resolve(), { once: true });
  w.postMessage(m, '*');
}), message);
const lastPosted = () => page.evaluate(() => (globalThis as unknown as PageWindow).__posted.at(-1));
const grid = () => page.getByRole('grid', { name: 'Rows of the response' });
/** The id of the element focus is on, as a screen reader would follow it (the grid's active descendant included). */
const focusedId = () => page.evaluate(() => {
  const d = (globalThis as unknown as { document: { activeElement: { id: string; getAttribute(n: string): string | null } | null } }).document;
  const el = d.activeElement;
  return el?.getAttribute('aria-activedescendant') ?? el?.id ?? '';
});
const focusedName = () => page.evaluate(() => {
  const d = (globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string | null; getAttribute(n: string): string | null } | null } }).document;
  const el = d.activeElement;
  return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? el.textContent ?? ''}` : '';
});
const active = () => page.locator('.cell.active');

before(async () => {
  server = await servePanelPage();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 700 }, locale: 'en-US' });
  await page.goto(server.url);
  await page.waitForFunction(() => (globalThis as unknown as PageWindow).__posted.some((m) => m.type === 'ready'));
  for (const message of bigMessages(ROWS, 'a11y')) await send(message);
  await page.locator(`.table[data-rows-loaded="${ROWS}"]`).waitFor();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

void test('a response is announced politely: status, rows, business failure and that more pages follow', async () => {
  const announcer = page.getByTestId('announcer');
  assert.equal(await announcer.getAttribute('aria-live'), 'polite');
  assert.equal(await announcer.textContent(), '200 OK, business failure reported in the body, 1,000 rows, more pages');
});

void test('the grid counts every row and column, not only the rendered ones', async () => {
  const g = grid();
  assert.equal(await g.getAttribute('aria-rowcount'), String(ROWS + 1));
  assert.equal(await g.getAttribute('aria-colcount'), '10');
  assert.deepEqual(await page.locator('.grid-row.header [role=columnheader]').evaluateAll((cells: ElementSeen[]) => cells.map((c) => c.getAttribute('aria-colindex'))), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  const first = page.locator('.rows [role=row]').first();
  assert.equal(await first.getAttribute('aria-rowindex'), '2');
  assert.equal(await first.locator('[role=rowheader]').count(), 1);
  assert.equal(await first.locator('[role=gridcell]').count(), 9);
  await g.evaluate((e: ElementSeen, top: number) => (e.scrollTop = top), 500 * 22);
  await page.locator('.rows [role=row][aria-rowindex="502"]').waitFor();
  assert.ok((await page.locator('.rows [role=row]').count()) < 100);
  await g.evaluate((e: ElementSeen) => (e.scrollTop = 0));
  await page.locator('.rows [role=row][aria-rowindex="2"]').waitFor();
});

void test('keyboard: arrows move between cells, selection follows, Home/End and Ctrl+Home/End, Page Down', async () => {
  await grid().focus();
  assert.equal(await focusedId(), 'grid-0-0');
  assert.equal(await page.locator('[role=row][aria-selected=true]').getAttribute('data-row'), '0');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedId(), 'grid-0-1');
  assert.equal(await active().textContent(), '100000');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedId(), 'grid-1-1');
  assert.equal(await page.locator('[role=row][aria-selected=true]').getAttribute('data-row'), '1');
  assert.equal(await page.locator('[role=row][aria-selected=true]').count(), 1);
  await page.keyboard.press('End');
  assert.equal(await focusedId(), 'grid-1-9');
  await page.keyboard.press('Home');
  assert.equal(await focusedId(), 'grid-1-0');
  await page.keyboard.press('PageDown');
  const afterPage = await focusedId();
  assert.match(afterPage, /^grid-(\d+)-0$/);
  assert.ok(Number(/^grid-(\d+)/.exec(afterPage)![1]) > 10, afterPage);
  await page.keyboard.press('Control+End');
  assert.equal(await focusedId(), `grid-${ROWS - 1}-0`);
  assert.equal(await page.locator(`#grid-${ROWS - 1}-0`).isVisible(), true);
  assert.equal(await page.locator('[role=row][aria-selected=true]').getAttribute('aria-rowindex'), String(ROWS + 1));
  await page.keyboard.press('Control+Home');
  assert.equal(await focusedId(), 'grid-0-0');
});

void test('keyboard: Up from the first row reaches the headers; Enter and Space sort, aria-sort says how', async () => {
  await grid().focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focusedId(), 'grid-h-1');
  await page.keyboard.press('Enter');
  const header = page.locator('#grid-h-1');
  assert.equal(await header.getAttribute('aria-sort'), 'ascending');
  await page.keyboard.press(' ');
  assert.equal(await header.getAttribute('aria-sort'), 'descending');
  assert.equal(await page.getByTestId('announcer').textContent(), 'Sorted by OrderID, descending');
  assert.equal(await page.locator('.rows [role=row]').first().getAttribute('data-row'), String(ROWS - 1));
  assert.equal(await page.locator('[aria-sort]').count(), 1, 'only the sorted column carries aria-sort');
  // The arrow is drawn, not read: the header's name stays the column's name.
  assert.equal(await page.getByRole('columnheader', { name: 'OrderID', exact: true }).count(), 1);
  await page.keyboard.press('Enter');
  assert.equal(await header.getAttribute('aria-sort'), null);
  assert.equal(await page.locator('.rows [role=row]').first().getAttribute('data-row'), '0');
});

void test('keyboard: Enter on a nested value opens it with focus in it; Escape closes it and focus returns to the cell', async () => {
  await grid().focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Home');
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await focusedId(), 'grid-1-7');
  await page.keyboard.press('Enter');
  const detail = page.getByTestId('detail');
  await detail.waitFor();
  assert.equal(await page.getByRole('region', { name: 'Row 2 · Address' }).count(), 1);
  assert.equal(await focusedId(), '');
  assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }).document.activeElement.getAttribute('data-testid')), 'detail-text');
  await page.keyboard.press('Escape');
  await detail.waitFor({ state: 'hidden' });
  assert.equal(await focusedId(), 'grid-1-7');
  // Space opens it too; Enter on a plain value asks the host to open the row as JSON.
  await page.keyboard.press(' ');
  await detail.waitFor();
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastPosted(), { type: 'openRow', index: 1 });
});

void test('tabs: one Tab stop, arrows move and select, each tab controls its labelled tabpanel', async () => {
  const tabs = page.getByRole('tab');
  assert.equal(await tabs.count(), 4);
  assert.deepEqual(await tabs.evaluateAll((ts: ElementSeen[]) => ts.map((t) => t.getAttribute('tabindex'))), ['0', '-1', '-1', '-1']);
  for (const tab of await tabs.all()) {
    const panelId = await tab.getAttribute('aria-controls');
    assert.equal(await page.locator(`[id="${panelId}"][role=tabpanel]`).getAttribute('aria-labelledby'), await tab.getAttribute('id'));
  }
  await page.getByRole('tab', { name: 'Table' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await focusedName(), 'button:Raw JSON');
  assert.equal(await page.getByRole('tab', { name: 'Raw JSON' }).getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByRole('tabpanel', { name: 'Raw JSON' }).isVisible(), true);
  assert.equal(await page.getByRole('grid').isVisible(), false);
  await page.keyboard.press('End');
  assert.equal(await focusedName(), 'button:Summary');
  await page.keyboard.press('ArrowRight'); // wraps
  assert.equal(await focusedName(), 'button:Table');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focusedName(), 'button:Summary');
  // A panel without controls of its own is the next Tab stop, so its text can be reached and scrolled.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }).document.activeElement.getAttribute('role')), 'tabpanel');
  assert.deepEqual(await page.getByRole('heading').allTextContents(), ['API Workbench results', 'This response', 'Earlier responses to this request']);
  await page.getByRole('tab', { name: 'Summary' }).focus();
  await page.keyboard.press('Home');
  assert.equal(await focusedName(), 'button:Table');
});

void test('the raw view names its icon buttons in words', async () => {
  await page.getByRole('tab', { name: 'Raw JSON' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('tab', { name: 'Raw JSON' }).click();
  assert.equal(await page.getByRole('button', { name: 'Previous match' }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Next match' }).count(), 1);
  assert.equal(await page.getByRole('button', { name: '↑' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'All pages to file' }).count(), 1);
  await page.getByRole('tab', { name: 'Table' }).click();
});

void test('a walk moves focus to Stop when it starts and back to All pages when it ends; its verdict is announced', async () => {
  const all = page.getByRole('button', { name: 'All pages to file' });
  await all.focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastPosted(), { type: 'allPages', format: 'ndjson' });
  await send({ type: 'progress', pages: 1, rows: ROWS, rowsPerSecond: 0, elapsedMs: 0, file: 'apiwb-results/orders.ndjson' });
  await page.getByRole('button', { name: 'Stop' }).and(page.locator(':enabled')).waitFor();
  assert.equal(await focusedName(), 'button:Stop');
  assert.match((await page.getByTestId('announcer').textContent()) ?? '', /^Walking every page to apiwb-results\/orders\.ndjson/);
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastPosted(), { type: 'stop' });
  await send({ type: 'walkEnded', ok: true, message: 'Stopped after 3 pages; 3 000 rows written.', paging: { ...PAGING, pages: 3, rows: 3000, endReason: 'stopped; can resume' } });
  assert.equal(await focusedName(), 'button:All pages to file');
  assert.equal(await page.getByTestId('announcer').textContent(), 'Stopped after 3 pages; 3 000 rows written.');
});

void test('a refused Next page is said in the paging bar and announced (aria-live), not only in a toast', async () => {
  const text = 'A walk of this response is already running: stop it first.';
  await send({ type: 'notice', text });
  assert.equal(await page.getByTestId('progress').textContent(), text);
  assert.equal(await page.getByTestId('announcer').textContent(), text);
  assert.equal(await page.getByTestId('announcer').getAttribute('aria-live'), 'polite');
});

void test('Next page that disables itself on the last page hands focus to the next control, not to <body>', async () => {
  await page.getByRole('button', { name: 'Next page' }).focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastPosted(), { type: 'nextPage' });
  const columns = [{ key: 'OrderID', label: 'OrderID' }];
  await send({ type: 'appendRows', rowCount: 2, rowsJson: JSON.stringify([{ OrderID: 1 }, { OrderID: 2 }]), columns, paging: { ...PAGING, pages: 2, rows: ROWS + 2, canContinue: false, endReason: 'last page reached' } });
  assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
  assert.equal(await focusedName(), 'button:Export rows');
  assert.equal(await page.getByTestId('announcer').textContent(), 'Page 2: 2 rows added, 1,002 rows in all, last page reached');
  assert.equal(await grid().getAttribute('aria-rowcount'), String(ROWS + 3));
});

void test('a new response that hides the focused part (the open detail) puts focus on the view showing, not on <body>', async () => {
  await grid().focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Home');
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await page.getByTestId('detail').waitFor();
  assert.match(await focusedName(), /^pre:/);
  await send({ type: 'show', viewModel: { ...bigViewModel(50), id: 'a11y-next' } });
  await page.getByTestId('detail').waitFor({ state: 'hidden' });
  assert.equal(await focusedId(), 'grid-0-0');
  assert.equal(await page.getByTestId('announcer').textContent(), '200 OK, business failure reported in the body, 50 rows, more pages');
});

void test('axe-core finds no violation in the panel (table with a selected row, raw view, headers, summary)', async () => {
  await grid().focus();
  await page.keyboard.press('ArrowDown');
  for (const tab of ['Table', 'Raw JSON', 'Headers', 'Summary']) {
    await page.getByRole('tab', { name: tab }).click();
    if (tab === 'Raw JSON') {
      await page.getByLabel('Search the body').fill('Lyon');
      await page.locator('pre.raw mark.current').waitFor();
    }
    const violations = await axeViolations(page);
    assert.deepEqual(violations.map((v) => v.id), [], `${tab}:\n${describeViolations(violations)}`);
  }
});
