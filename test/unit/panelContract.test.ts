// The panel's Contract section in real chromium under the host's CSP: a drifting response of
// AddChoiceQuestion (checked by core/contract) shows each finding with its path and contract section in
// a labelled region; a faithful one says "no drift"; what the contract does not show is listed as not checked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createCatalog } from '../../src/core/catalog';
import { checkContract } from '../../src/core/contract/drift';
import { contractViewOf } from '../../src/core/contract/view';
import { buildResultsViewModel } from '../../src/core/results/viewModel';
import { encodeViewModel } from '../../src/core/results/wire';
import { ROOT, launchChromium, servePanelPage, type PanelPage } from './panelBrowserPage';

const SHOTS = join(ROOT, 'test-output/screenshots');
type PageWindow = { __posted: { type: string }[]; postMessage(message: unknown, targetOrigin: string): void };

let browser: Browser | undefined;
let server: PanelPage | undefined;
let page: Page;

function show(body: unknown, id: string): Promise<void> {
  const op = createCatalog().operationById('engagement/SurveyApi/AddChoiceQuestion');
  assert.ok(op);
  const bodyText = JSON.stringify(body);
  const response = { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' }, bodyText, timing: { startedAt: 0, firstByteMs: 5, totalMs: 9 }, sizeBytes: bodyText.length };
  const vm = encodeViewModel(buildResultsViewModel({
    requestKey: 'survey.http#addChoice', id,
    request: { method: 'POST', url: 'http://127.0.0.1:1/api/SurveyApi/AddChoiceQuestion', headers: { Authorization: 'Bearer ***' } },
    response, catalogue: 'SurveyApi', service: 'engagement',
    contract: contractViewOf(checkContract(op, { status: 200, headers: response.headers, body })),
  }));
  const json = JSON.stringify({ type: 'show', viewModel: vm });
  return page.evaluate((payload) => (globalThis as unknown as PageWindow).postMessage(JSON.parse(payload), '*'), json);
}

before(async () => {
  server = await servePanelPage();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 600 } });
  await page.goto(server.url);
  await page.waitForFunction(() => (globalThis as unknown as PageWindow).__posted.some((m) => m.type === 'ready'));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

void test('a drifting response: each finding with its kind, path and section, in a labelled region', async () => {
  await show({ Errors: [{ ErrorCode: 999, ErrorDescription: 'x' }], ResponseStatus: 'false', SandboxDrift: 'not in the contract' }, 'drift-1');
  const section = page.getByRole('region', { name: /Contract: 4 findings against engagement\/SurveyApi\/AddChoiceQuestion/ });
  await section.waitFor();
  const items = await section.getByRole('listitem').allTextContents();
  assert.equal(items.length, 4);
  assert.ok(items.some((t) => t.includes('Documented field missing') && t.includes('$.ID') && t.includes('seed 000 §2.4')), items.join('\n'));
  assert.ok(items.some((t) => t.includes('Type differs') && t.includes('$.ResponseStatus')));
  assert.ok(items.some((t) => t.includes('Not documented') && t.includes('$.SandboxDrift')));
  assert.ok(items.some((t) => t.includes('Error code outside the catalogue') && t.includes('$.Errors[0].ErrorCode') && t.includes('§7.3')));
  mkdirSync(SHOTS, { recursive: true });
  await section.screenshot({ path: join(SHOTS, 'panel-contract-section.png') });
  await page.screenshot({ path: join(SHOTS, 'panel-contract.png') });
});

void test('a faithful response: "no drift"', async () => {
  await show({ ID: 3, Errors: [], ResponseStatus: true }, 'faithful-1');
  await page.getByRole('region', { name: 'Contract: no drift from engagement/SurveyApi/AddChoiceQuestion' }).waitFor();
  assert.equal(await page.getByTestId('contract-section').getByRole('listitem').count(), 0);
});
