// Issue 34 in the browser: right-click in the orders request of README.http → "Generate Paging Loop…" →
// TypeScript opens an untitled TypeScript editor holding the page-number loop named after the operation,
// commented with its contract section; no secret is in it (it reads APIWB_SECRET_ENGAGEMENT_TOKEN).
import { editorLine, openFile, runCommandExactly } from './lib/workbench.mjs';

export const name = 'Generate Paging Loop from the editor\'s context menu opens a TypeScript loop named after the operation';
export const timeoutMs = 90_000;

export async function run(page, ctx) {
  ctx.requireSandbox();
  await openFile(page, 'README.http');
  const line = editorLine(page, 'GetOrdersByCustomer');
  await line.waitFor();
  await line.click();
  await line.click({ button: 'right' });
  const menu = page.getByRole('menu').last();
  await menu.waitFor({ state: 'visible' });
  await menu.getByRole('menuitem', { name: /^Generate Paging Loop/ }).click();
  const pick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'TypeScript' }).first();
  // A click that lands while the menu is still opening only highlights the item: Enter chooses it then.
  await pick.waitFor({ timeout: 5_000 }).catch(async () => {
    if (await menu.isVisible()) await page.keyboard.press('Enter');
    await pick.waitFor();
  });
  await pick.click();

  // The untitled editor: TypeScript, the loop's name, the contract's rule in the product's words.
  // An untitled tab is named after its first line, then "Untitled-N".
  await page.getByRole('tab', { name: /Untitled-\d/ }).waitFor({ timeout: 30_000 });
  await page.locator('[id="status.editor.mode"]', { hasText: 'TypeScript' }).waitFor();
  await editorLine(page, 'walkGetOrdersByCustomer: every page of engagement/Transaction/GetOrdersByCustomer').waitFor();
  await editorLine(page, 'customer-engagement contract §4.2 rules 2-3').waitFor();
  const text = await page.locator('.editor-group-container.active .monaco-editor .view-lines').innerText();
  for (const secret of ctx.sandbox ? [ctx.sandbox.credentials.engagement.password] : []) {
    if (text.includes(secret)) throw new Error('a secret is in the generated loop');
  }
  await ctx.screenshot('generate-paging-loop');
  // The loop itself: find its function and show it.
  await page.keyboard.press('Control+F');
  const find = page.locator('.find-widget textarea, .find-widget input').first();
  await find.fill('export async function walkGetOrdersByCustomer');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await editorLine(page, 'export async function walkGetOrdersByCustomer(options: WalkOptions = {}): Promise<WalkResult>').waitFor();
  await ctx.screenshot('generate-paging-loop-function');
}

/** The untitled loop is closed unsaved, then every editor: the next test starts from none. */
export async function cleanup(page) {
  await page.keyboard.press('Escape');
  if (await page.getByRole('tab', { name: /Untitled-\d/ }).count()) await runCommandExactly(page, 'View: Revert and Close Editor');
  await runCommandExactly(page, 'View: Close All Editor Groups');
}
