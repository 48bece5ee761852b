// The results panel in the real editor: "Send Request and Follow Pages" on a booking-service list (paging
// in the X-Pagination-* headers, no auth) opens the panel with the first page as a table; "Next page" in
// the panel appends the second page. Read as a user sees it, inside the webview's frames.
import { runCommand } from './lib/workbench.mjs';
import { clickInEditor, resultsPanel, rowCount, closeAllEditors, writeAndOpen } from './panelWebview.mjs';

export const name = 'results panel: send and follow pages shows a table, Next page appends the next page';
export const timeoutMs = 90_000;

// The next test starts from a calm workbench (the Services test finds its tab by name).
export const cleanup = closeAllEditors;

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  const file = 'panel-bookings.http';
  await writeAndOpen(page, ctx, file, `### Bookings, first page (X-Pagination-* headers)\n# @name bookingsForPanel\nGET ${sandbox.booking.baseUrl}/bookings?page=1\n`);
  await clickInEditor(page, '/bookings?page=1');
  await runCommand(page, 'API Workbench: Send Request and Follow Pages');

  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  await panel.locator('.rows .grid-row').first().waitFor();
  const headers = await panel.locator('.grid-row.header .cell').allTextContents();
  if (headers.length < 2) throw new Error(`the table has no columns: ${JSON.stringify(headers)}`);
  const firstPageRows = await rowCount(panel);
  if (firstPageRows < 1) throw new Error('the first page shows no row');
  await panel.getByTestId('paging-state').filter({ hasText: /· 1 page ·/ }).waitFor();
  ctx.log(`first page: ${firstPageRows} rows, columns ${headers.slice(1).join(', ')}`);
  await ctx.screenshot('panel-first-page');

  await panel.getByRole('button', { name: 'Next page' }).click();
  // A refused Next page says why in the bar (e.g. the first page went out before the env file was read and
  // the environment has changed since): fail with that, not with a timeout.
  const twoPages = panel.getByTestId('paging-state').filter({ hasText: /· 2 pages ·/ });
  const refused = panel.getByTestId('progress').filter({ hasText: /\S/ });
  await twoPages.or(refused).first().waitFor({ timeout: 30_000 });
  if (await refused.count() > 0) throw new Error(`Next page did not append page 2: ${await refused.first().textContent()}`);
  const bothPagesRows = await rowCount(panel);
  if (bothPagesRows <= firstPageRows) throw new Error(`Next page did not add rows: ${firstPageRows} → ${bothPagesRows}`);
  ctx.log(`after Next page: ${bothPagesRows} rows`);
  await ctx.screenshot('panel-next-page');
}
