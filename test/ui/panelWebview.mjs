// Reaching into the results panel from a UI test. A VS Code webview is two frames deep: the workbench's
// `iframe.webview` hosts an `#active-frame` with the panel's own page. Not a test (no .ui.mjs suffix).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFile } from './lib/workbench.mjs';

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
 * Writes a request file into the test workspace and opens it. Quick Open finds a new file only once the
 * editor's file watcher has reported it, which the Explorer showing it confirms.
 */
export async function writeAndOpen(page, ctx, fileName, text) {
  writeFileSync(join(ctx.workspace, fileName), text);
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: fileName }).first().waitFor({ timeout: 15_000 });
  await openFile(page, fileName);
}
