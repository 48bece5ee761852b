// The History view in the real editor: two sends of one request are listed newest first; selecting both
// and choosing "Compare History Entries" from the context menu opens the diff editor with the two answers
// as JSON, where the headers a server stamps per response end in "// volatile". No sign-in: the booking service
// publishes no authentication.
import { runCommand, runCommandExactly } from './lib/workbench.mjs';
import { clickInEditor, closeAllEditors, writeAndOpen } from './panelWebview.mjs';

export const name = 'History view: two sends of a request compare side by side in the diff editor';
export const timeoutMs = 90_000;

const REQUEST = `### Bookings, page 2
# @name historyCompareBookings
GET {{booking_base_url}}/bookings?page=2
`;

/** Leaves the Explorer showing and no editor open (a diff editor opens a moment after its command). */
export async function cleanup(page) {
  await page.keyboard.press('Escape');
  await closeAllEditors(page);
  await runCommandExactly(page, 'View: Close All Editor Groups');
  await runCommandExactly(page, 'View: Show Explorer');
}

export async function run(page, ctx) {
  ctx.requireSandbox();
  await writeAndOpen(page, ctx, 'history-compare.http', REQUEST);
  await page.locator('.statusbar', { hasText: /sandbox: engagement/ }).waitFor({ timeout: 30_000 });
  const history = page.locator('[id="workbench.view.extension.apiWorkbench"]').getByRole('tree', { name: 'History' });
  for (let i = 0; i < 2; i++) {
    await clickInEditor(page, 'GET {{booking_base_url}}');
    await runCommand(page, 'API Workbench: Send Request');
    await page.getByRole('tab', { name: /^API Workbench results/ }).waitFor();
  }
  await runCommand(page, 'API Workbench: Focus on History View');
  const rows = history.getByRole('treeitem').filter({ hasText: 'historyCompareBookings' });
  await rows.nth(1).waitFor({ timeout: 30_000 });
  await rows.nth(0).click();
  await rows.nth(1).click({ modifiers: ['Control'] });
  await rows.nth(1).click({ button: 'right' });
  const item = page.locator('.context-view .action-label', { hasText: 'Compare History Entries' }).first();
  await item.hover();
  await item.click();
  // A context-menu click can be swallowed while the menu is still settling; the item is then the
  // highlighted one, and Enter runs it, as a keyboard user would.
  if (await page.locator('.context-view .monaco-menu').isVisible().catch(() => false)) await page.keyboard.press('Enter');

  const diff = page.locator('.monaco-diff-editor');
  await diff.waitFor({ timeout: 30_000 });
  await diff.locator('.view-line', { hasText: '// volatile' }).first().waitFor();
  await diff.locator('.view-line', { hasText: '"x-pagination-page": "2"' }).first().waitFor();
  await ctx.screenshot('history-compare-diff');
}
