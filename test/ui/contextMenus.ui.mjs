// README's Environments tour in the browser: right-click on the active environment, on the fundraising
// (Basic + X-API-Key) and fundraising-user (JWT bearer) rows and on the engagement row opens a context
// menu with the actions the README names, not only inline icons.
import { openServicesView, expand, runCommandExactly } from './lib/workbench.mjs';

export const name = 'Right-click on the environment and credential rows opens the context actions the README names';

/** The Environments view's row whose label is exactly `label` (its description follows in the same row). */
function row(tree, label, description) {
  return tree.getByRole('treeitem').filter({ hasText: new RegExp(`^\\s*${label.replace(/[-]/g, '\\-')}\\s*${description}`) }).first();
}

export async function run(page, ctx) {
  ctx.requireSandbox();
  await openServicesView(page);
  const tree = page.locator('[id="workbench.view.extension.apiWorkbench"]').getByRole('tree', { name: 'Environments' });
  await tree.waitFor({ state: 'visible' });
  const environment = row(tree, 'sandbox', 'active');
  await expand(environment);
  const menus = [
    ['sandbox', environment, ['Switch Environment', 'Sign In', 'Set Basic Credentials', 'Paste Bearer Token', 'Forget All Credentials']],
    ['fundraising', row(tree, 'fundraising', 'Basic'), ['Set Basic Credentials', 'Forget All Credentials']],
    ['fundraising-user', row(tree, 'fundraising-user', 'JWT'), ['Paste Bearer Token', 'Forget All Credentials']],
    ['engagement', row(tree, 'engagement', ''), ['Sign In', 'Forget All Credentials']],
  ];
  for (const [label, item, actions] of menus) {
    await item.click({ button: 'right' });
    const menu = page.getByRole('menu').last();
    await menu.waitFor({ state: 'visible' });
    for (const action of actions) await menu.getByRole('menuitem', { name: action, exact: true }).waitFor();
    ctx.log(`${label}: ${(await menu.getByRole('menuitem').allTextContents()).map((t) => t.trim()).filter(Boolean).join(', ')}`);
    await ctx.screenshot(`context-menu-${label}`);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
  }
}

/** The tests after this one open files from the Explorer: show it again instead of the API Workbench views. */
export async function cleanup(page) {
  await page.keyboard.press('Escape');
  await runCommandExactly(page, 'View: Show Explorer');
  await page.locator('.explorer-folders-view').waitFor({ state: 'visible' });
}
