// The results panel with the keyboard only, as a user who cannot use a mouse: sign in to the fundraising
// service (its service key), open a request file and send it from the command palette, move into the panel,
// through rows and cells, sort by a column, open a nested value and come back, page with Next page, start a
// walk of every page (focus moves to Stop) and stop it (focus comes back, the verdict is announced), switch
// tabs with the arrow keys. Every step is a key press or typed text; a listener in the workbench and in the
// panel counts trusted mouse and pointer events, and the test fails if there is any.
import { closeAllEditors, panelFocus, resultsPanel, resultsPanelFrame } from './panelWebview.mjs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'keyboard only: sign in, send, rows and cells, sort, nested value, Next page, walk and Stop, tabs — no mouse event';
export const timeoutMs = 150_000;
export const cleanup = closeAllEditors;

const FILE = 'a11y-keyboard.http';
// The sandbox holds each answer 300 ms, so the walk is still running when Stop is pressed.
const REQUEST = `### Fundraising transactions (limit + offset paging; giftAidStatusDetails is a nested object)
# @name transactionsByKeyboard
GET {{fundraising_base_url}}/v1/transactions?limit=20
Authorization: Basic {{$auth.token("fundraising")}}
X-API-Key: {{tenant_code}}
X-Sandbox-Fault: delay=300
`;

// Enter or Space on a button fires a trusted `click` too, with detail 0 (no pointer was pressed): those are
// keyboard activations; a click from a pointer has detail >= 1 and comes with pointerdown / mousedown.
const COUNT_MOUSE = () => {
  globalThis.__mouseEvents = 0;
  for (const type of ['mousedown', 'mouseup', 'click', 'dblclick', 'pointerdown', 'pointerup', 'contextmenu', 'wheel']) {
    globalThis.addEventListener(type, (e) => {
      if (e.isTrusted && !((type === 'click' || type === 'dblclick') && e.detail === 0)) globalThis.__mouseEvents += 1;
    }, true);
  }
};

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  await page.evaluate(COUNT_MOUSE);
  writeFileSync(join(ctx.workspace, FILE), REQUEST);

  // Open the file (File: Open File… takes a typed path; opening a .http file starts the extension).
  await paletteCommand(page, 'File: Open File...');
  // The dialog starts in the workspace folder: once it lists it, type the file's name after the folder.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: FILE }).first().waitFor();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(join(ctx.workspace, FILE));
  await page.waitForFunction((name) => document.querySelector('.quick-input-widget input')?.value.endsWith(name), FILE);
  // The dialog may still be updating its list from the typed path and ignore that Enter: then it stays open
  // with the path in it, and Enter is pressed again (at most three times).
  const editorTab = page.getByRole('tab', { name: new RegExp(`^${FILE.replace('.', '\\.')}`) });
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Enter');
    const opened = await editorTab.waitFor({ timeout: 5_000 }).then(() => true, () => false);
    if (opened) break;
    if (!(await page.locator('.quick-input-widget').isVisible())) {
      await editorTab.waitFor();
      break;
    }
    if (attempt === 3) throw new Error(`File: Open File… did not open ${FILE}`);
  }

  // Sign in: the fundraising entry's service key, typed into the editor's password box.
  await page.locator('.statusbar', { hasText: /sandbox/ }).waitFor();
  await paletteCommand(page, 'API Workbench: Set Basic Credentials');
  const secret = page.locator('.quick-input-widget input[type="password"]');
  await secret.waitFor();
  await page.keyboard.type(sandbox.credentials.fundraising.fullAccess.serviceKey);
  await page.keyboard.press('Enter');
  await secret.waitFor({ state: 'hidden' });

  // The cursor on the request line (Go to Line), then send from the palette.
  await page.keyboard.press('Control+G');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');

  await paletteCommand(page, 'API Workbench: Send Request and Follow Pages');
  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  const frame = await resultsPanelFrame(page);
  await frame.evaluate(COUNT_MOUSE);
  await announced(frame, '200 OK, 20 rows, more pages');

  // Into the panel: Ctrl+2 focuses its editor group (the second), and focus lands on the grid.
  await page.keyboard.press('Control+2');
  await frame.waitForFunction(() => document.activeElement?.getAttribute('role') === 'grid');
  await expectFocus(frame, { role: 'grid', activeCell: 'grid-0-0' });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expectFocus(frame, { role: 'grid', activeCell: 'grid-1-2' });
  await panel.locator('[role=row][aria-selected=true][aria-rowindex="3"]').waitFor();

  // Sort: Up from the first row reaches the column headers; Enter sorts, again reverses.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowUp');
  await expectFocus(frame, { role: 'grid', activeCell: 'grid-h-2' });
  const header = panel.locator('#grid-h-2');
  const column = ((await header.textContent()) ?? '').trim();
  await page.keyboard.press('Enter');
  await header.and(panel.locator('[aria-sort="ascending"]')).waitFor();
  await page.keyboard.press('Enter');
  await header.and(panel.locator('[aria-sort="descending"]')).waitFor();
  await announced(frame, `Sorted by ${column}, descending`);
  await page.keyboard.press('Enter'); // back to the order received
  await panel.locator('[aria-sort]').waitFor({ state: 'detached' });

  // A nested value: Enter opens it with focus inside, Escape returns to the same cell.
  const nested = await panel.locator('.grid-row.header [data-key="giftAidStatusDetails"]').getAttribute('data-col');
  if (nested === null) throw new Error('the transactions have no giftAidStatusDetails column');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Home');
  for (let i = 0; i < Number(nested); i++) await page.keyboard.press('ArrowRight');
  await expectFocus(frame, { role: 'grid', activeCell: `grid-0-${nested}` });
  await page.keyboard.press('Enter');
  await panel.getByRole('region', { name: /^Row 1 · giftAidStatusDetails/ }).waitFor();
  await frame.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'detail-text');
  const detail = (await panel.getByTestId('detail-text').textContent()) ?? '';
  if (!detail.includes('"status"')) throw new Error(`the detail does not show the nested object: ${detail}`);
  await page.keyboard.press('Escape');
  await panel.getByTestId('detail').waitFor({ state: 'hidden' });
  await expectFocus(frame, { role: 'grid', activeCell: `grid-0-${nested}` });
  await page.keyboard.press('PageDown');
  const paged = await panelFocus(frame);
  if (!/^grid-(1\d|[2-9])-/.test(paged.activeCell)) throw new Error(`Page Down did not move a screen down: ${paged.activeCell}`);

  // Next page, reached with Shift+Tab from the grid.
  await tabTo(frame, page, 'Shift+Tab', 'Next page');
  await page.keyboard.press('Enter');
  await announced(frame, 'Page 2: 20 rows added, 40 rows in all, more pages');
  await panel.getByRole('grid').and(panel.locator('[aria-rowcount="41"]')).waitFor();
  await expectFocus(frame, { role: 'button', name: 'Next page' });

  // A walk: starting it moves focus to Stop; Stop ends it, the verdict is announced, focus comes back.
  await tabTo(frame, page, 'Tab', 'All pages to file');
  await page.keyboard.press('Enter');
  await frame.waitForFunction(() => document.activeElement?.textContent === 'Stop', undefined, { timeout: 30_000 });
  await ctx.screenshot('panel-keyboard-walking');
  await page.keyboard.press('Enter');
  await frame.waitForFunction(() => /stop/i.test(document.querySelector('[data-testid=announcer]')?.textContent ?? '') && !/^Walking/.test(document.querySelector('[data-testid=announcer]')?.textContent ?? ''), undefined, { timeout: 30_000 });
  await frame.waitForFunction(() => document.activeElement?.textContent === 'All pages to file');
  ctx.log(`walk verdict: ${await panel.getByTestId('announcer').textContent()}`);

  // Tabs: reach the selected tab, then arrows.
  await tabTo(frame, page, 'Tab', 'Table');
  await page.keyboard.press('ArrowRight');
  await panel.getByRole('tab', { name: 'Raw JSON', selected: true }).waitFor();
  await expectFocus(frame, { role: 'tab', name: 'Raw JSON' });
  await page.keyboard.press('ArrowRight');
  await panel.getByRole('tabpanel', { name: 'Headers' }).waitFor();
  await page.keyboard.press('End');
  await panel.getByRole('tab', { name: 'Summary', selected: true }).waitFor();
  await page.keyboard.press('Home');
  await panel.getByRole('tab', { name: 'Table', selected: true }).waitFor();
  await page.keyboard.press('Tab');
  await expectFocus(frame, { role: 'grid' });
  await ctx.screenshot('panel-keyboard');

  const mouse = (await page.evaluate(() => globalThis.__mouseEvents)) + (await frame.evaluate(() => globalThis.__mouseEvents));
  if (mouse !== 0) throw new Error(`${mouse} mouse or pointer event(s) reached the workbench or the panel`);
}

/** F1, the command's title, then Arrow Down until the highlighted row is exactly that command, Enter. */
async function paletteCommand(page, title) {
  await page.keyboard.press('F1');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('input').waitFor();
  await page.keyboard.press('Control+A'); // F1 opens the palette with ">" already typed
  await page.keyboard.type(`>${title}`);
  const focused = widget.locator('.monaco-list-row.focused');
  const seen = [];
  for (let step = 0; step < 8; step++) {
    await focused.waitFor();
    const label = ((await focused.getAttribute('aria-label')) ?? '').trim();
    seen.push(label);
    if (label === title || label.startsWith(`${title},`)) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the command palette has no "${title}" (rows: ${JSON.stringify(seen)})`);
}

/** Presses Tab (or Shift+Tab) until the panel's focus is on the control named `label` (at most 12 presses). */
async function tabTo(frame, page, key, label) {
  for (let step = 0; step < 12; step++) {
    const focus = await panelFocus(frame);
    if (focus.name === label) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached "${label}" (focus: ${JSON.stringify(await panelFocus(frame))})`);
}

async function expectFocus(frame, expected) {
  const focus = await panelFocus(frame);
  for (const [key, value] of Object.entries(expected)) {
    if (focus[key] !== value) throw new Error(`focus is ${JSON.stringify(focus)}, expected ${JSON.stringify(expected)}`);
  }
}

async function announced(frame, text) {
  await frame.waitForFunction((t) => (document.querySelector('[data-testid=announcer]')?.textContent ?? '').trim() === t, text, { timeout: 30_000 })
    .catch(async (error) => {
      throw new Error(`the live region says "${await frame.evaluate(() => document.querySelector('[data-testid=announcer]')?.textContent)}", not "${text}" (${error.message})`);
    });
}
