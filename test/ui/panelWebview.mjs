// Reaching into the results panel from a UI test. A VS Code webview is two frames deep: the workbench's
// `iframe.webview` hosts an `#active-frame` with the panel's own page. Not a test (no .ui.mjs suffix).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand, runCommandExactly } from './lib/workbench.mjs';

/** The results panel's page, as a Playwright FrameLocator. */
export function resultsPanel(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** Rows the table holds (all of them, not only the rendered ones): the spacer is rows × the fixed row height. */
export async function rowCount(panel) {
  return panel.locator('.spacer').evaluate((spacer) => {
    const row = spacer.querySelector('.grid-row');
    return row ? Math.round(spacer.offsetHeight / row.offsetHeight) : 0;
  });
}

/** Puts the editor's cursor on the line showing `text` (the request to send). */
export async function clickInEditor(page, text) {
  await page.locator('.monaco-editor .view-line', { hasText: text }).first().click();
}

/**
 * Writes a request file into the test workspace and opens it from the Explorer once the file watcher has
 * reported it (Quick Open may still serve a file list cached before the file existed).
 */
export async function writeAndOpen(page, ctx, fileName, text) {
  writeFileSync(join(ctx.workspace, fileName), text);
  // An earlier test may have left another view container in the side bar (API Workbench, History).
  await runCommandExactly(page, 'View: Show Explorer');
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: fileName }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await page.getByRole('tab', { name: new RegExp(`^${fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).waitFor();
}

/**
 * Clicks the Send lens of the first request of the open file, once the language server has put its lenses
 * up, and waits for the panel to show a 200; returns the panel.
 */
export async function sendFirstRequest(page) {
  const lenses = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration').first();
  await lenses.waitFor({ timeout: 30_000 });
  await lenses.locator('a', { hasText: /^Send$/ }).click();
  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  return panel;
}

/**
 * Writes a file with one booking-list request named `name` (on the env file's {{booking_base_url}}), opens
 * it, sends it with the Send Request command once the environment is loaded, and waits for its 200.
 */
export async function sendBookingsFromFile(page, ctx, fileName, name) {
  ctx.requireSandbox();
  await writeAndOpen(page, ctx, fileName, `### Bookings\n# @name ${name}\nGET {{booking_base_url}}/bookings?page=1\n`);
  await page.locator('.statusbar', { hasText: /sandbox/ }).first().waitFor({ timeout: 30_000 });
  await clickInEditor(page, 'GET {{booking_base_url}}');
  await runCommand(page, 'API Workbench: Send Request');
  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  return panel;
}

/** Leaves a calm workbench for the next test: the panel and the request files closed. */
export async function closeAllEditors(page) {
  await runCommand(page, 'View: Close All Editors');
  await page.locator('iframe.webview').waitFor({ state: 'detached' }).catch(() => {});
}

/** The results panel's page as a Playwright Frame, for evaluate() (axe, where focus is). */
export async function resultsPanelFrame(page) {
  const outer = await page.locator('iframe.webview.ready').elementHandle();
  const host = await outer.contentFrame();
  const inner = await host.locator('#active-frame').elementHandle();
  return inner.contentFrame();
}

/** What has focus inside the panel: its role and accessible-name-ish text, and the grid's active cell. */
export async function panelFocus(frame) {
  return frame.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { role: 'body', name: '', activeCell: '' };
    return {
      role: el.getAttribute('role') ?? el.tagName.toLowerCase(),
      name: el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 80),
      activeCell: el.getAttribute('aria-activedescendant') ?? '',
    };
  });
}
