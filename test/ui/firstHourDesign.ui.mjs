// Pictures for a designer's review, in Default Light Modern and Default Dark Modern: the results panel after a
// complete walk (table, paging bar with its verdict, Raw JSON, Summary), the panel's empty table (a page
// past the last), the History view before anything was sent, and the Services tree at the default side-bar
// width with a service and its families expanded. design-<theme>-<what>.png under test-output/screenshots/.
// It asserts only what the pictures need to show (a verdict in the bar, an empty table); the other UI
// tests check the behaviour.
import { THEMES, resetColorTheme, setColorTheme, waitForPanelTheme } from './lib/themes.mjs';
import { openServicesView, runCommand, treeItem, expand } from './lib/workbench.mjs';
import { clickInEditor, closeAllEditors, resultsPanel, resultsPanelFrame, writeAndOpen } from './panelWebview.mjs';

export const name = 'design screenshots: panel (table, verdict, Raw JSON, Summary, empty table), History and Services in Light and Dark';
export const timeoutMs = 240_000;

const PICTURED = THEMES.filter((theme) => theme.slug === 'light' || theme.slug === 'dark');

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  const findings = [];
  const step = async (what, body) => {
    try { await body(); } catch (error) { findings.push(`${what}: ${error?.message ?? error}`); }
  };

  const container = page.locator('[id="workbench.view.extension.apiWorkbench"]');
  for (const theme of PICTURED) {
    await setColorTheme(page, ctx.workspace, theme);
    // The Services tree at the default side-bar width, one service expanded at a time (the list is virtual).
    for (const service of ctx.catalog.services.slice(0, 2)) {
      await step(`${theme.slug} services ${service.title}`, async () => {
        const tree = await openServicesView(page);
        const item = treeItem(tree, service.title).first();
        await expand(item);
        await treeItem(tree, service.families[0].name).first().waitFor();
        await ctx.screenshot(`design-${theme.slug}-services-${service.title.split(/[\s-]/)[0].toLowerCase()}`);
        await item.click();
        await item.and(page.locator('[aria-expanded="false"]')).waitFor();
      });
    }
    await step(`${theme.slug} history empty`, async () => {
      await openServicesView(page);
      const header = container.locator('.pane-header', { hasText: 'History' });
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      await container.locator('.pane-header[aria-expanded="true"]', { hasText: 'History' }).waitFor();
      await ctx.screenshot(`design-${theme.slug}-history-empty`);
    });
  }

  await writeAndOpen(page, ctx, 'design-screens.http', [
    '### Bookings (a walk of every page)', '# @name designBookings', `GET ${sandbox.booking.baseUrl}/bookings?page=1`, '',
    '### Bookings past the last page (an empty table)', '# @name designEmpty', `GET ${sandbox.booking.baseUrl}/bookings?page=999`, '',
  ].join('\n'));
  const panel = resultsPanel(page);
  await step('walk', async () => {
    await clickInEditor(page, '/bookings?page=1');
    await runCommand(page, 'API Workbench: Send Request');
    await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: /^All pages/ }).click();
    await panel.getByTestId('progress').filter({ hasText: /^All pages read|complete/ }).or(panel.getByTestId('paging-state').filter({ hasText: /complete/ })).first().waitFor({ timeout: 60_000 });
  });
  let frame = await resultsPanelFrame(page);
  for (const theme of PICTURED) {
    await setColorTheme(page, ctx.workspace, theme);
    await waitForPanelTheme(frame, theme);
    for (const view of ['Table', 'Raw JSON', 'Summary']) {
      await step(`${theme.slug} ${view}`, async () => {
        await panel.getByRole('tab', { name: view }).click();
        await panel.getByRole('tabpanel', { name: view }).waitFor();
        await ctx.screenshot(`design-${theme.slug}-${view.toLowerCase().replace(/\s+/g, '-')}`);
      });
    }
    // Focus rings reach 3:1 against what they are drawn on: the active cell on its selected row, the
    // search box's ring on the page (outside the box).
    const grid = panel.getByRole('grid');
    await panel.getByRole('tab', { name: 'Table' }).click();
    await grid.focus();
    await grid.press('ArrowDown');
    await grid.press('ArrowRight');
    const cell = await frame.evaluate(ringContrast, { selector: '.viewport:focus .cell.active', against: '.rows .grid-row.selected' });
    ctx.log(`${theme.slug}: active cell ring ${JSON.stringify(cell)}`);
    if (!(cell.ratio >= 3)) findings.push(`${theme.slug}: the active cell's focus ring is ${cell.ratio}:1 against its row`);
    await panel.getByRole('tab', { name: 'Raw JSON' }).click();
    await panel.getByLabel('Search the body').focus();
    const search = await frame.evaluate(ringContrast, { selector: 'input.search', against: 'body' });
    ctx.log(`${theme.slug}: search box ring ${JSON.stringify(search)}`);
    if (!(search.ratio >= 3)) findings.push(`${theme.slug}: the search box's focus ring is ${search.ratio}:1 against the page`);
    await panel.getByRole('tab', { name: 'Table' }).click();
  }

  await step('empty page', async () => {
    await clickInEditor(page, '/bookings?page=999');
    await runCommand(page, 'API Workbench: Send Request');
    await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
    await panel.getByTestId('row-count').filter({ hasText: /^0 rows?|no rows/i }).waitFor();
  });
  frame = await resultsPanelFrame(page);
  for (const theme of PICTURED) {
    await setColorTheme(page, ctx.workspace, theme);
    await waitForPanelTheme(frame, theme);
    await step(`${theme.slug} empty table`, async () => {
      await panel.getByRole('tab', { name: 'Table' }).click();
      await ctx.screenshot(`design-${theme.slug}-empty-table`);
    });
  }
  if (findings.length) throw new Error(`some pictures could not be taken:\n${findings.join('\n')}`);
}

/** In the page: the contrast of `selector`'s outline colour against `against`'s background (WCAG ratio). */
function ringContrast({ selector, against }) {
  const rgb = (text) => (text.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const luminance = ([r, g, b]) => {
    const lin = (c) => { const v = c / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const element = document.querySelector(selector);
  let back = document.querySelector(against);
  let background = back ? getComputedStyle(back).backgroundColor : 'rgb(0, 0, 0)';
  // A transparent background shows what is under it: the body's.
  if (/rgba\(.*, 0\)$|transparent/.test(background)) background = getComputedStyle(document.body).backgroundColor;
  const outline = element ? getComputedStyle(element).outlineColor : 'rgb(0, 0, 0)';
  const [a, b] = [luminance(rgb(outline)), luminance(rgb(background))];
  const ratio = Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
  return { outline, background, ratio, found: !!element && !!back };
}

export async function cleanup(page, ctx) {
  await resetColorTheme(ctx.workspace);
  await closeAllEditors(page);
}
