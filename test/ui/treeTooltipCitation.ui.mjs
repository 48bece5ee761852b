// The Services tree's tooltip cites its contract section as a link: hover an operation
// (SurveyApi/AddChoiceQuestion), click "customer-engagement contract §4.1", and the contract reference
// opens in the Markdown preview at that section.
import { expand, openServicesView, runCommandExactly, treeItem } from './lib/workbench.mjs';

export const name = 'An operation tooltip in the Services tree links its contract section, which opens the reference';
export const timeoutMs = 60_000;

export async function run(page, ctx) {
  const tree = await openServicesView(page);
  const engagement = treeItem(tree, ctx.catalog.service('engagement').title);
  await expand(engagement);
  const family = treeItem(tree, 'SurveyApi').and(tree.locator('[aria-level="2"]')).first();
  await expand(family);
  const operation = treeItem(tree, 'AddChoiceQuestion').first();
  // The tree renders only the rows in view (four views share the side bar): scroll until the row exists.
  for (let i = 0; i < 40 && (await operation.count()) === 0; i++) {
    await family.hover();
    await page.mouse.wheel(0, 66);
  }
  await operation.hover();
  const tooltip = page.locator('.monaco-hover').filter({ hasText: 'customer-engagement contract §4.1' }).first();
  await tooltip.waitFor({ state: 'visible', timeout: 30_000 });
  await ctx.screenshot('tree-tooltip-citation');
  await tooltip.getByRole('link', { name: 'customer-engagement contract §4.1' }).first().click();
  await page.getByRole('tab', { name: /^Preview engagement\.md/ }).waitFor({ timeout: 30_000 });
  const preview = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
  const heading = preview.locator('h3', { hasText: '§4.1 SurveyApi question operations' });
  await heading.waitFor();
  await heading.evaluate((element) => new Promise((resolve) => {
    const check = () => (element.getBoundingClientRect().top < 120 ? resolve(true) : requestAnimationFrame(check));
    check();
  }));
  await ctx.screenshot('tree-tooltip-contract-section');
}

/** Leaves the tree collapsed, no editor open and the Explorer showing. */
export async function cleanup(page, ctx) {
  const tree = await openServicesView(page);
  const engagement = treeItem(tree, ctx.catalog.service('engagement').title);
  if ((await engagement.getAttribute('aria-expanded')) === 'true') await engagement.click();
  await runCommandExactly(page, 'View: Close All Editor Groups');
  await runCommandExactly(page, 'View: Show Explorer');
}
