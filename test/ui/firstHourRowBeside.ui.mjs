// Enter on a plain cell opens the row as JSON beside the results panel, not over it (the panel's tab stays
// in sight), and closing that editor brings focus back to the panel's grid, on the same cell.
import { runCommandExactly } from './lib/workbench.mjs';
import { closeAllEditors, panelFocus, resultsPanelFrame, sendBookingsFromFile } from './panelWebview.mjs';

export const name = 'Enter on a plain cell opens the row beside the panel; closing it returns focus to the same cell';
export const timeoutMs = 90_000;

export async function cleanup(page) {
  await closeAllEditors(page);
  await runCommandExactly(page, 'View: Close All Editor Groups');
}

export async function run(page, ctx) {
  const panel = await sendBookingsFromFile(page, ctx, 'row-beside.http', 'rowBeside');
  const grid = panel.getByRole('grid');
  await grid.focus();
  await grid.press('ArrowDown');
  await grid.press('ArrowDown');
  await grid.press('ArrowRight');
  const frame = await resultsPanelFrame(page);
  const before = await panelFocus(frame);
  ctx.log(`before Enter: ${JSON.stringify(before)}`);
  if (!before.activeCell) throw new Error('no active cell in the grid');
  await grid.press('Enter');

  // The row: a JSON editor in a group of its own; the panel's tab still shown in its group.
  const rowEditor = page.locator('.editor-group-container', { has: page.locator('.monaco-editor .view-line', { hasText: '"bookingId"' }) });
  await rowEditor.first().waitFor({ timeout: 20_000 });
  const panelTab = page.getByRole('tab', { name: /^API Workbench results/ });
  if (!(await panelTab.isVisible())) throw new Error('the row opened over the results panel');
  const groups = await page.locator('.editor-group-container').count();
  if (groups < 3) throw new Error(`the row did not open beside the panel (${groups} editor groups)`);
  await ctx.screenshot('row-beside-panel');

  // Close the row's editor: focus comes back to the grid, same cell.
  await rowEditor.first().locator('.monaco-editor .view-line').first().click();
  await runCommandExactly(page, 'View: Close Editor');
  await rowEditor.first().waitFor({ state: 'detached', timeout: 10_000 });
  const back = await frame.waitForFunction((cell) => document.hasFocus() && document.activeElement?.getAttribute('role') === 'grid'
    && document.activeElement.getAttribute('aria-activedescendant') === cell, before.activeCell, { timeout: 15_000 }).then(() => true, () => false);
  const after = { ...(await panelFocus(frame)), hasFocus: await frame.evaluate(() => document.hasFocus()) };
  ctx.log(`after closing: ${JSON.stringify(after)}`);
  if (!back) throw new Error(`focus did not come back to the grid's cell ${before.activeCell}: ${JSON.stringify(after)}`);
}
