// Plain "Send" (the CodeLens, not "Send and follow pages") on a paged request: the booking list answers
// its first page with X-Pagination-* headers saying more exist, so the paging bar says "more pages" and
// offers Next page and All pages. After All pages, the status line's row count and the bar agree.
import { runCommandExactly } from './lib/workbench.mjs';
import { closeAllEditors, sendFirstRequest, writeAndOpen } from './panelWebview.mjs';

export const name = 'plain Send on a paged request shows the paging bar with Next page; after All pages one row count';
export const timeoutMs = 90_000;
export const cleanup = closeAllEditors;

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  const file = 'plain-send-bookings.http';
  await writeAndOpen(page, ctx, file, `### Bookings (plain Send)\n# @name plainSendBookings\nGET ${sandbox.booking.baseUrl}/bookings?page=1\n`);
  const panel = await sendFirstRequest(page);
  const state = panel.getByTestId('paging-state');
  await state.filter({ hasText: /· 1 page · .* · more pages$/ }).waitFor({ timeout: 15_000 });
  const next = panel.getByRole('button', { name: 'Next page' });
  await next.waitFor();
  if (await next.isDisabled()) throw new Error('Next page is disabled after a plain Send of a paged request');
  ctx.log(`after plain Send: ${await state.textContent()}`);
  await ctx.screenshot('plain-send-paged-next-page');

  await panel.getByRole('button', { name: /^All pages/ }).click();
  // The verdict is said once, in the bar's line: "All pages read: 10 pages and 237 rows. …".
  const verdict = panel.getByTestId('progress').filter({ hasText: /^All pages read: / });
  await verdict.waitFor({ timeout: 60_000 });
  const barText = (await verdict.textContent()) ?? '';
  const barRows = /and ([\d,.\u202f\u00a0 ]+?) rows?\./.exec(barText)?.[1];
  const headerText = (await panel.getByTestId('row-count').textContent()) ?? '';
  const headerRows = /^([\d,.\u202f\u00a0 ]+?) rows?/.exec(headerText)?.[1];
  ctx.log(`after All pages: bar "${barText}", header "${headerText}"`);
  if (!barRows || barRows !== headerRows) throw new Error(`the bar says ${barRows} rows, the status line ${headerText}`);
  await ctx.screenshot('plain-send-paged-all-pages');
  await page.keyboard.press('Escape');
  await runCommandExactly(page, 'View: Close All Editor Groups');
}
