// Accessibility in the four built-in theme kinds (Light, Dark, High Contrast Dark, High Contrast Light):
// axe-core, injected into the results panel and into the API Workbench views of the workbench (Services
// expanded to families, Environments, Requests), must find no violation in any theme. The panel is checked
// twice: a paged table (every view: the table with a selected row and its focused cell, Raw JSON with search
// matches, Headers, Summary) and a 401 with its explanation banner. The focused cell must have a visible
// outline and, in High Contrast, the selected row its contrast border. A screenshot of the panel in each
// theme: panel-theme-<light|dark|hc-dark|hc-light>.png (table) and panel-theme-<…>-401.png.
import { axeViolations, describeViolations, WORKBENCH_EXCLUDE, WORKBENCH_RULES_OFF } from './lib/axe.mjs';
import { THEMES, resetColorTheme, setColorTheme, waitForPanelTheme } from './lib/themes.mjs';
import { openServicesView, treeItem, expand, runCommand } from './lib/workbench.mjs';
import { clickInEditor, closeAllEditors, resultsPanel, resultsPanelFrame, writeAndOpen } from './panelWebview.mjs';

export const name = 'accessibility: axe finds no violation in the results panel and the views, in Light, Dark, High Contrast and High Contrast Light';
export const timeoutMs = 300_000;

const VIEWS = '[id="workbench.view.extension.apiWorkbench"]';

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  await writeAndOpen(page, ctx, 'a11y-themes.http', [
    '### Bookings, first page (X-Pagination-* headers)', '# @name bookingsForThemes', `GET ${sandbox.booking.baseUrl}/bookings?page=1`, '',
    '### Fundraising without credentials (a 401 and its explanation)', '# @name constituentsWithoutCredentials', `GET ${sandbox.fundraising.baseUrl}/v1/constituents?limit=5`, '',
  ].join('\n'));
  await clickInEditor(page, '/bookings?page=1');
  await runCommand(page, 'API Workbench: Send Request and Follow Pages');
  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  await panel.locator('.rows .grid-row').first().waitFor();

  const tree = await openServicesView(page);
  const service = treeItem(tree, ctx.catalog.services[0].title);
  await expand(service);
  await treeItem(tree, ctx.catalog.services[0].families[0].name).first().waitFor();

  const found = [];
  let frame = await resultsPanelFrame(page);
  for (const theme of THEMES) {
    await setColorTheme(page, ctx.workspace, theme);
    await waitForPanelTheme(frame, theme);
    for (const view of ['Raw JSON', 'Headers', 'Summary', 'Table']) {
      await showView(panel, view, 'Confirmed');
      if (view === 'Table') {
        // A selected row and the focused cell, as a keyboard user leaves them.
        await panel.getByRole('grid').focus();
        await panel.getByRole('grid').press('ArrowDown');
        await panel.getByRole('grid').press('ArrowRight');
        await panel.locator('.viewport:focus .cell.active').waitFor();
        found.push(...(await outlineProblems(frame, theme, ctx)));
      }
      const violations = await axeViolations(frame);
      if (violations.length) found.push(`${theme.name}, results panel, ${view}:\n${describeViolations(violations)}`);
    }
    await ctx.screenshot(`panel-theme-${theme.slug}`);
    const views = await axeViolations(page, { include: VIEWS, exclude: WORKBENCH_EXCLUDE, rulesOff: WORKBENCH_RULES_OFF });
    if (views.length) found.push(`${theme.name}, API Workbench views:\n${describeViolations(views)}`);
    ctx.log(`${theme.name}: ${found.length} finding(s) so far`);
  }

  // The 401: error status, the auth banner, no table.
  await clickInEditor(page, '/v1/constituents');
  await runCommand(page, 'API Workbench: Send Request');
  await panel.getByTestId('status').filter({ hasText: /^401/ }).waitFor({ timeout: 30_000 });
  await panel.locator('.banner.auth').waitFor();
  frame = await resultsPanelFrame(page);
  for (const theme of THEMES) {
    await setColorTheme(page, ctx.workspace, theme);
    await waitForPanelTheme(frame, theme);
    for (const view of ['Headers', 'Summary', 'Raw JSON']) {
      await showView(panel, view, 'Unauthorized');
      const violations = await axeViolations(frame);
      if (violations.length) found.push(`${theme.name}, results panel (401), ${view}:\n${describeViolations(violations)}`);
    }
    await ctx.screenshot(`panel-theme-${theme.slug}-401`);
  }
  ctx.log(`views: rules off ${JSON.stringify(WORKBENCH_RULES_OFF)}; left out: ${WORKBENCH_EXCLUDE}`);
  if (found.length) throw new Error(`accessibility findings:\n${found.join('\n\n')}`);
}

/** Selects a view with the keyboard (its tab focused, Enter); in Raw JSON, searches `term` when it occurs. */
async function showView(panel, view, term) {
  const tab = panel.getByRole('tab', { name: view });
  await tab.focus();
  await tab.press('Enter');
  await panel.getByRole('tabpanel', { name: view }).waitFor();
  if (view === 'Raw JSON' && (await panel.locator('pre.raw', { hasText: term }).count()) > 0) {
    await panel.getByLabel('Search the body').fill(term);
    await panel.locator('pre.raw mark.current').waitFor();
  }
}

/** The focused cell always has a visible outline; in High Contrast the selected row has the contrast border too. */
async function outlineProblems(frame, theme, ctx) {
  const outline = await frame.evaluate(() => {
    const line = (el) => { const s = el ? getComputedStyle(el) : undefined; return s ? `${s.outlineStyle} ${s.outlineColor}` : 'missing'; };
    return { row: line(document.querySelector('.rows .grid-row.selected')), cell: line(document.querySelector('.cell.active')) };
  });
  ctx.log(`${theme.name}: selected row outline ${outline.row}, focused cell outline ${outline.cell}`);
  const invisible = (o) => /^none|missing|rgba\(0, 0, 0, 0\)/.test(o);
  const problems = [];
  if (invisible(outline.cell)) problems.push(`${theme.name}: the focused cell has no visible outline (${outline.cell})`);
  if (theme.slug.startsWith('hc') && invisible(outline.row)) problems.push(`${theme.name}: the selected row has no contrast border (${outline.row})`);
  return problems;
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
