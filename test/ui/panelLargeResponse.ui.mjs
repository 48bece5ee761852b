// Issue 37 in the real editor's webview: a response of about 52 MB from a server of the test's own
// (127.0.0.1, port 0) is shown from disk: the first rows at once, the last row once the grid is scrolled to
// the end (asked for and read from the spill file), the raw body a page at a time (its last page holds the
// last row); a secret-named field masked in both.
import { createServer } from 'node:http';
import { closeAllEditors, resultsPanel, writeAndOpen } from './panelWebview.mjs';

export const name = 'results panel: a large response (52 MB) shows its first rows, then its last row and last body page from disk';
export const timeoutMs = 240_000;
export const cleanup = closeAllEditors;

const ROWS = 500_000;
const row = (i) => `{"id":${i},"name":"row ${i}","secret_key":"sk-${i}","amount":${i * 1.5},"note":"${'x'.repeat(50)}"}`;

export async function run(page, ctx) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let i = 0;
    const more = () => {
      while (i < ROWS) {
        const piece = [];
        for (const end = Math.min(ROWS, i + 5000); i < end; i++) piece.push(row(i));
        if (!res.write(`${i - piece.length === 0 ? '[' : ','}${piece.join(',')}${i === ROWS ? ']' : ''}`)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}/rows`;
    await writeAndOpen(page, ctx, 'large-response.http', `### Half a million rows\n# @name largeResponse\nGET ${url}\n`);
    const lenses = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration').first();
    await lenses.waitFor({ timeout: 30_000 });
    await lenses.locator('a', { hasText: /^Send$/ }).click();
    const panel = resultsPanel(page);
    await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 180_000 });
    const countText = (await panel.getByTestId('row-count').textContent()) ?? '';
    if (!/^500[ ,\u202f\u00a0]?000 rows/.test(countText)) throw new Error(`row count says "${countText}"`);
    const first = (await panel.locator('.rows .grid-row').first().allTextContents()).join(' ');
    if (!first.includes('row 0') || first.includes('sk-0')) throw new Error(`first row: ${first}`);
    await ctx.screenshot('panel-large-response-first-rows');

    await panel.getByTestId('grid').evaluate((grid) => { grid.scrollTop = grid.scrollHeight; });
    const last = panel.locator(`.grid-row[data-row="${ROWS - 1}"]`);
    await last.waitFor({ timeout: 30_000 });
    const lastText = (await last.allTextContents()).join(' ');
    if (!lastText.includes(`row ${ROWS - 1}`) || lastText.includes('sk-')) throw new Error(`last row: ${lastText}`);
    await ctx.screenshot('panel-large-response-last-row');

    await panel.getByRole('tab', { name: 'Raw JSON' }).click();
    await panel.getByRole('status').filter({ hasText: /^Page 1 of \d+/ }).waitFor({ timeout: 15_000 });
    await panel.getByRole('button', { name: 'Last body page' }).click();
    const raw = panel.locator('pre.raw');
    await raw.filter({ hasText: `"id": ${ROWS - 1}` }).waitFor({ timeout: 60_000 });
    const text = (await raw.textContent()) ?? '';
    if (text.includes('sk-')) throw new Error('a secret reached the raw body page');
    await ctx.screenshot('panel-large-response-raw-last-page');
    ctx.log(`${countText}; last row "${lastText.slice(0, 80)}"; last raw page ${text.length} characters`);
    await panel.getByRole('tab', { name: 'Table' }).click();
  } finally {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}
