// History records what happened, once, and says the same everywhere: a plain Send of the booking list is one
// page (no walk verdict in its row, its tooltip or the reopened panel); "All pages to file" on it is a second
// entry with the walk's verdict, the same in its row, its tooltip and the reopened panel.
import { runCommand, runCommandExactly } from './lib/workbench.mjs';
import { closeAllEditors, sendBookingsFromFile } from './panelWebview.mjs';

export const name = 'History: a plain Send is one page, a panel walk is recorded with its verdict; list, tooltip and reopened panel agree';
export const timeoutMs = 120_000;

export async function cleanup(page) {
  await page.keyboard.press('Escape');
  await closeAllEditors(page);
  await runCommandExactly(page, 'View: Show Explorer');
}

export async function run(page, ctx) {
  const panel = await sendBookingsFromFile(page, ctx, 'history-agree.http', 'historyAgree');
  await panel.getByRole('button', { name: /^All pages/ }).click();
  const verdict = panel.getByTestId('progress').filter({ hasText: /^All pages read: 10 pages and 237 rows\./ });
  await verdict.waitFor({ timeout: 60_000 });
  const barState = (await panel.getByTestId('paging-state').textContent()) ?? '';
  if (/\d/.test(barState)) throw new Error(`the bar says the counts twice: state "${barState}" beside "${await verdict.textContent()}"`);
  await ctx.screenshot('history-agree-walk-verdict');

  await runCommand(page, 'API Workbench: Focus on History View');
  const history = page.locator('[id="workbench.view.extension.apiWorkbench"]').getByRole('tree', { name: 'History' });
  const rows = history.getByRole('treeitem').filter({ hasText: 'historyAgree' });
  await rows.nth(1).waitFor({ timeout: 30_000 });
  const [walkRow, sendRow] = [rows.nth(0), rows.nth(1)];
  const walkText = (await walkRow.textContent()) ?? '';
  const sendText = (await sendRow.textContent()) ?? '';
  ctx.log(`rows: walk "${walkText}", send "${sendText}"`);
  if (!/all pages, 10 pages/.test(walkText)) throw new Error(`the walk's row does not say its verdict: ${walkText}`);
  if (/pages|cut short/.test(sendText)) throw new Error(`the plain Send's row speaks of a walk: ${sendText}`);

  const tooltipOf = async (row) => {
    await row.hover();
    const hover = page.locator('.monaco-hover').filter({ hasText: 'GET' }).last();
    await hover.waitFor({ state: 'visible', timeout: 20_000 });
    const text = (await hover.textContent()) ?? '';
    await page.mouse.move(0, 0);
    await hover.waitFor({ state: 'hidden' }).catch(() => {});
    return text;
  };
  const walkTip = await tooltipOf(walkRow);
  const sendTip = await tooltipOf(sendRow);
  ctx.log(`tooltips: walk "${walkTip}", send "${sendTip}"`);
  if (!walkTip.includes('All pages read: 10 pages and 237 rows.')) throw new Error(`the walk's tooltip: ${walkTip}`);
  if (!sendTip.includes('One page') || /cut short|page limit/.test(sendTip)) throw new Error(`the plain Send's tooltip: ${sendTip}`);

  // Reopened from disk: the walk says its verdict in the bar, the Send is a single page.
  await walkRow.click();
  await panel.getByTestId('progress').filter({ hasText: /^All pages read: 10 pages and 237 rows\./ }).waitFor({ timeout: 20_000 });
  await ctx.screenshot('history-agree-reopened-walk');
  await sendRow.click();
  await panel.getByTestId('paging-state').filter({ hasText: /^Single page$/ }).waitFor({ timeout: 20_000 });
  const line = (await panel.getByTestId('progress').textContent()) ?? '';
  if (/All pages|cut short/.test(line)) throw new Error(`the reopened Send speaks of a walk: ${line}`);
}
