// A response of more rows than one screen, through the real editor's webview.postMessage: the panel shows
// the first rows from `show`, then every row and the body from `showRest` (two messages the editor carries,
// which the node and browser tests only simulate). A local server on 127.0.0.1 answers 5 000 order rows,
// one with a secret-named field and a Bearer token in a string: both shown masked in the table and the body.
import { createServer } from 'node:http';
import { closeAllEditors, rowCount, sendFirstRequest, writeAndOpen } from './panelWebview.mjs';

export const name = 'results panel: a 5 000-row response shows its first rows, then every row and the body';
export const timeoutMs = 90_000;
export const cleanup = closeAllEditors;

const ROWS = 5_000;

export async function run(page, ctx) {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ OrderID: i + 1, Status: i % 5 ? 'Completed' : 'Cancelled', Total: i / 4 }));
  rows[2] = { ...rows[2], password: 'hunter2-in-a-row', Note: 'Bearer abcdef123456' };
  const body = JSON.stringify({ Data: rows });
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}/orders`;
    await writeAndOpen(page, ctx, 'large-page.http', `### Many orders\n# @name largePage\nGET ${url}\n`);
    const panel = await sendFirstRequest(page);
    await panel.locator(`.table[data-rows-loaded="${ROWS}"]`).waitFor({ timeout: 30_000 });
    const counted = await rowCount(panel);
    if (counted !== ROWS) throw new Error(`the table holds ${counted} rows, not ${ROWS}`);
    const rowCountText = (await panel.getByTestId('row-count').textContent()) ?? '';
    if (!/^5[ ,\u202f\u00a0]?000 rows/.test(rowCountText)) throw new Error(`row count says "${rowCountText}"`);
    const headers = await panel.locator('.grid-row.header .cell').allTextContents();
    if (!headers.includes('password') || !headers.includes('Note')) throw new Error(`the columns of later rows are missing: ${headers.join(', ')}`);
    const third = (await panel.locator('.rows .grid-row').nth(2).allTextContents()).join(' ');
    if (third.includes('hunter2') || third.includes('abcdef123456')) throw new Error(`a secret reached the table: ${third}`);
    await ctx.screenshot('panel-large-page');

    await panel.getByRole('tab', { name: 'Raw JSON' }).click();
    const raw = panel.locator('pre.raw');
    await raw.filter({ hasText: '"OrderID": 5000' }).waitFor({ timeout: 15_000 });
    const text = (await raw.textContent()) ?? '';
    if (text.includes('hunter2') || text.includes('abcdef123456')) throw new Error('a secret reached the raw body');
    if (!text.includes('"password": "***"') || !text.includes('Bearer ***')) throw new Error('the raw body does not show the masks');
    ctx.log(`${counted} rows, columns ${headers.slice(1).join(', ')}; raw body ${text.length} characters`);
    await panel.getByRole('tab', { name: 'Table' }).click();
  } finally {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}
