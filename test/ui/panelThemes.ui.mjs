// Accessibility in the four built-in theme kinds (Light, Dark, High Contrast Dark, High Contrast Light):
// axe-core, injected into the results panel (every view: the table with a selected row and its active cell,
// Raw JSON with search matches, Headers, Summary) and into the API Workbench views of the workbench (Services
// expanded to families, Environments, Requests), must find no violation in any theme. A screenshot of the
// panel in each theme is saved as panel-theme-<light|dark|hc-dark|hc-light>.png.
import { axeViolations, describeViolations, WORKBENCH_EXCLUDE, WORKBENCH_RULES_OFF } from './lib/axe.mjs';
import { THEMES, resetColorTheme, setColorTheme, waitForPanelTheme } from './lib/themes.mjs';
import { openServicesView, treeItem, expand, runCommand } from './lib/workbench.mjs';
import { clickInEditor, closeAllEditors, resultsPanel, resultsPanelFrame, writeAndOpen } from './panelWebview.mjs';

export const name = 'accessibility: axe finds no violation in the results panel and the views, in Light, Dark, High Contrast and High Contrast Light';
export const timeoutMs = 240_000;

const VIEWS = '[id="workbench.view.extension.apiWorkbench"]';

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  await writeAndOpen(page, ctx, 'a11y-themes.http', `### Bookings, first page (X-Pagination-* headers)\n# @name bookingsForThemes\nGET ${sandbox.booking.baseUrl}/bookings?page=1\n`);
  await clickInEditor(page, '/bookings?page=1');
  await runCommand(page, 'API Workbench: Send Request and Follow Pages');
  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  await panel.locator('.rows .grid-row').first().waitFor();
  const frame = await resultsPanelFrame(page);

  const tree = await openServicesView(page);
  const service = treeItem(tree, ctx.catalog.services[0].title);
  await expand(service);
  await treeItem(tree, ctx.catalog.services[0].families[0].name).first().waitFor();

  const found = [];
  for (const theme of THEMES) {
    await setColorTheme(page, ctx.workspace, theme);
    await waitForPanelTheme(frame, theme);
    for (const view of ['Raw JSON', 'Headers', 'Summary', 'Table']) {
      await panel.getByRole('tab', { name: view }).focus();
      await panel.getByRole('tab', { name: view }).press('Enter');
      if (view === 'Raw JSON') {
        await panel.getByLabel('Search the body').fill('Confirmed');
        await panel.locator('pre.raw mark.current').waitFor();
      }
      if (view === 'Table') {
        // A selected row and the focused cell, as a keyboard user leaves them.
        await panel.getByRole('grid').focus();
        await panel.getByRole('grid').press('ArrowDown');
        await panel.getByRole('grid').press('ArrowRight');
        await panel.locator('.viewport:focus .cell.active').waitFor();
        // The focused cell always has a visible outline; in High Contrast the selected row has the contrast border too.
        const outline = await frame.evaluate(() => {
          const line = (el) => { const s = el ? getComputedStyle(el) : undefined; return s ? `${s.outlineStyle} ${s.outlineColor}` : 'missing'; };
          return { row: line(document.querySelector('.rows .grid-row.selected')), cell: line(document.querySelector('.cell.active')) };
        });
        const invisible = (o) => /^none|missing|rgba\(0, 0, 0, 0\)/.test(o);
        if (invisible(outline.cell)) found.push(`${theme.name}: the focused cell has no visible outline (${outline.cell})`);
        if (theme.slug.startsWith('hc') && invisible(outline.row)) found.push(`${theme.name}: the selected row has no contrast border (${outline.row})`);
        ctx.log(`${theme.name}: selected row outline ${outline.row}, focused cell outline ${outline.cell}`);
      }
      const violations = await axeViolations(frame);
      if (violations.length) found.push(`${theme.name}, results panel, ${view}:\n${describeViolations(violations)}`);
    }
    await ctx.screenshot(`panel-theme-${theme.slug}`);
    const views = await axeViolations(page, { include: VIEWS, exclude: WORKBENCH_EXCLUDE, rulesOff: WORKBENCH_RULES_OFF });
    if (views.length) found.push(`${theme.name}, API Workbench views:\n${describeViolations(views)}`);
    ctx.log(`${theme.name}: ${found.length} finding(s) so far`);
  }
  ctx.log(`views: rules off ${JSON.stringify(WORKBENCH_RULES_OFF)}; left out: ${WORKBENCH_EXCLUDE}`);
  if (found.length) throw new Error(`axe found violations:\n${found.join('\n\n')}`);
}

export async function cleanup(page, ctx) {
  await resetColorTheme(ctx.workspace);
  const tree = await openServicesView(page);
  const service = treeItem(tree, ctx.catalog.services[0].title);
  if ((await service.getAttribute('aria-expanded')) === 'true') {
    await service.click();
    await service.and(page.locator('[aria-expanded="false"]')).waitFor();
  }
  await closeAllEditors(page);
}
