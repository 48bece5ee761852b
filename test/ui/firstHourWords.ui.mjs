// No word-based suggestion anywhere in a .http file, as the user sees it: a word that occurs only in the
// file ("zebraquokka", in one request's JSON body) is not offered by the suggest widget, neither in another
// JSON body (where the editor used to read [json]'s settings, the body being embedded JSON) nor on a
// header line. The language server's own suggestions still come (the widget works).
import { editorLine, triggerSuggest } from './lib/workbench.mjs';
import { closeAllEditors, writeAndOpen } from './panelWebview.mjs';

export const name = 'no word suggestion in a .http file: not in a JSON body, not on a header line';
export const timeoutMs = 60_000;
export const cleanup = closeAllEditors;

const WORD = 'zebraquokka';

/** Waits until the suggest widget has answered (rows, or its "No suggestions." message); returns the rows' texts. */
async function answered(page, widget) {
  const rows = widget.locator('.monaco-list-row');
  await rows.first().or(widget.locator('.message', { hasText: /No suggestions/ })).first().waitFor({ timeout: 20_000 });
  return rows.allTextContents();
}

export async function run(page, ctx) {
  await writeAndOpen(page, ctx, 'no-word-suggestions.http', [
    '### A body with a rare word', 'POST http://127.0.0.1:9/notes', 'Content-Type: application/json', '',
    '{', `  "note": "${WORD} once"`, '}', '',
    '### Another body', 'POST http://127.0.0.1:9/notes', 'Content-Type: application/json', '',
    '{', '  "other": "x"', '}', '',
  ].join('\n'));
  // In the second body: a new line inside the object, the word's first letters typed.
  await editorLine(page, '"other": "x"').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"zeb');
  await page.keyboard.press('Escape');
  let widget = await triggerSuggest(page);
  const inBody = await answered(page, widget);
  ctx.log(`in a JSON body: ${JSON.stringify(inBody)}`);
  await ctx.screenshot('no-word-suggestion-body');
  if (inBody.some((row) => row.includes(WORD))) throw new Error(`the suggest widget offers the word "${WORD}" in a JSON body: ${inBody.join(' | ')}`);
  await page.keyboard.press('Escape');

  // A header line of the second request.
  await editorLine(page, 'Content-Type: application/json').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('X-Zeb');
  await page.keyboard.press('Escape');
  widget = await triggerSuggest(page);
  const onHeader = await answered(page, widget);
  ctx.log(`on a header line: ${JSON.stringify(onHeader)}`);
  if (onHeader.some((row) => row.includes(WORD))) throw new Error(`the suggest widget offers the word "${WORD}" on a header line: ${onHeader.join(' | ')}`);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Z');
}
