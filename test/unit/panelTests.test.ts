// The panel's Tests section in real chromium under the host's CSP: a labelled region whose heading
// counts passed and failed assertions, each outcome in words (the marks are hidden from assistive
// technology), the expected and actual values of a failure, and the scripts not run. Response-provided
// text stays text. Saves a screenshot of one passing and one failing assertion.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TestsView } from '../../src/protocol/webviewMessages';
import { ROOT, bigViewModel, launchChromium, servePanelPage, type PanelPage } from './panelBrowserPage';

let browser: Browser | undefined;
let server: PanelPage | undefined;
let page: Page;
const errors: string[] = [];

const tests: TestsView = {
  passed: 1,
  failed: 1,
  results: [
    { line: 7, text: 'status == 200', outcome: 'passed', expected: '== 200', actual: '200' },
    { line: 8, text: 'body $.Orders[0].Total > 1000', outcome: 'failed', expected: '> 1000', actual: '<img src=x onerror=alert(1)>' },
  ],
  notRun: [{ line: 10, what: 'response handler script (> {% %})' }],
};

before(async () => {
  server = await servePanelPage();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1000, height: 560 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.waitForFunction(() => (globalThis as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
});

/** Shows a view model in the panel (each test shows its own: no test depends on the one before it). */
async function show(viewModel: unknown): Promise<void> {
  const json = JSON.stringify({ type: 'show', viewModel });
  await page.evaluate((payload) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(JSON.parse(payload), '*'), json);
}

after(async () => {
  await browser?.close();
  await server?.close();
});

void test('the Tests section: heading with counts, outcomes in words, expected and actual, not run', async () => {
  await show({ ...bigViewModel(3), id: 'with-tests', tests });
  const section = page.getByRole('region', { name: 'Tests: 1 passed, 1 failed' });
  await section.waitFor();
  const passed = section.getByTestId('test-passed');
  const failed = section.getByTestId('test-failed');
  assert.equal(await passed.count(), 1);
  assert.equal(await failed.count(), 1);
  assert.match((await passed.textContent()) ?? '', /Passed\?\? status == 200line 7/);
  assert.match((await failed.textContent()) ?? '', /Failed\?\? body \$\.Orders\[0\]\.Total > 1000line 8expected > 1000, actual <img src=x onerror=alert\(1\)>/);
  assert.equal(await section.locator('img').count(), 0, 'response text is never markup');
  assert.equal(await section.locator('.mark').first().getAttribute('aria-hidden'), 'true');
  assert.match((await section.getByRole('list', { name: /Scripts not run/ }).textContent()) ?? '', /Not runresponse handler script \(> \{% %\}\), line 10/);
  assert.deepEqual(errors, []);
  mkdirSync(join(ROOT, 'test-output/screenshots'), { recursive: true });
  await page.screenshot({ path: join(ROOT, 'test-output/screenshots/panel-tests-section-browser.png') });
});

void test('a response without assertions shows no Tests section, also after one that had it', async () => {
  await show({ ...bigViewModel(3), id: 'before', tests });
  await page.getByTestId('tests-section').waitFor();
  await show({ ...bigViewModel(3), id: 'without-tests' });
  await page.getByTestId('tests-section').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('tests-section').count(), 0);
});
