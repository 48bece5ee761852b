// New request scratches open pinned, not as preview tabs: two scratches made one after the other are both
// open afterwards (a preview tab would have been replaced by the second), and neither tab is in preview.
import { openFile, runCommand, runCommandExactly } from './lib/workbench.mjs';

export const name = 'New Request Scratch opens a pinned tab: a second scratch does not replace the first';
export const timeoutMs = 60_000;

async function newScratch(page, operation) {
  // The palette from the text editor (F1 pressed while a webview or nothing has focus may not open it).
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await runCommand(page, 'API Workbench: New Request Scratch');
  const input = page.locator('.quick-input-widget input');
  await input.fill(operation);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: operation }).first().click();
  const file = operation.split('/').pop();
  const tab = page.getByRole('tab', { name: new RegExp(`^${file}(-\\d+)?\\.http`) }).first();
  await tab.waitFor();
  return tab;
}

export async function run(page, ctx) {
  // An opened .http file activates the extension (the palette then has its commands).
  await openFile(page, 'README.http');
  await page.locator('.statusbar').getByRole('button', { name: /HTTP request/i }).first().waitFor();
  const first = await newScratch(page, 'SurveyApi/AddChoiceQuestion');
  const second = await newScratch(page, 'Transaction/GetOrdersByCustomer');
  await ctx.screenshot('scratch-tabs-pinned');
  if (!(await first.isVisible())) throw new Error('the first scratch tab was replaced by the second: it opened as a preview');
  for (const tab of [first, second]) {
    const classes = (await tab.getAttribute('class')) ?? '';
    if (/\bpreview\b|\bitalic\b/.test(classes)) throw new Error(`a scratch tab is in preview: ${await tab.textContent()} (${classes})`);
  }
}

export async function cleanup(page) {
  await runCommandExactly(page, 'View: Close All Editors');
}
