// Issue 5/6 in the browser: the language server's "Send" CodeLens stands above each request of README.http;
// clicking it (the booking service's first page, no sign-in needed) opens the results panel with the answer.
import { openFile, runCommandExactly } from './lib/workbench.mjs';
import { resultsPanel } from './panelWebview.mjs';

export const name = 'CodeLens "Send" stands above a request and clicking it opens the results panel';
export const timeoutMs = 60_000;

export async function run(page, ctx) {
  ctx.requireSandbox();
  await openFile(page, 'README.http');
  const editor = page.locator('.editor-group-container.active .monaco-editor');
  // The lens line of the first request (bookings, page headers): "Send | Send and follow pages (page-headers)".
  const lenses = editor.locator('.codelens-decoration').first();
  await lenses.waitFor({ timeout: 30_000 });
  const send = lenses.locator('a', { hasText: /^Send$/ });
  await send.waitFor();
  await lenses.locator('a', { hasText: /^Send and follow pages/ }).waitFor();
  // The lens belongs to the bookings request: the line under it is its request line.
  await editor.locator('.view-line', { hasText: '/bookings?page=1' }).first().waitFor();
  ctx.log(`lenses: ${(await lenses.textContent())?.replace(/\s+/g, ' ')}`);
  await ctx.screenshot('codelens-send');

  await send.click();
  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  await page.getByRole('tab', { name: /^API Workbench results/ }).waitFor();
  await panel.locator('.rows .grid-row').first().waitFor();
  await ctx.screenshot('codelens-send-panel');

  // Leave the workbench as the next test expects it: one editor group, no results panel beside it.
  // The focus back in the text editor first: F1 would go to the webview while it has the focus.
  await editor.locator('.view-line', { hasText: '/bookings?page=1' }).first().click();
  await runCommandExactly(page, 'View: Close All Editor Groups');
  await page.getByRole('tab', { name: /^API Workbench results/ }).waitFor({ state: 'detached' });
  await page.locator('.editor-group-container').nth(1).waitFor({ state: 'detached' });
}
