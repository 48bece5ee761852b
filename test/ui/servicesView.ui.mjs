// Open the Services view from the activity bar, see the three services, expand one to its families.
import { openServicesView, treeItem, expand, SERVICE_TITLES } from './lib/workbench.mjs';

export const name = 'Services view shows the three services and expands to operation families';

export async function run(page, ctx) {
  const tree = await openServicesView(page);
  for (const title of SERVICE_TITLES) await treeItem(tree, title).waitFor();
  // Before expanding: all three services in view, however short the Services pane is.
  await ctx.screenshot('services-view');

  const engagement = ctx.catalog.service('engagement');
  const item = treeItem(tree, engagement.title);
  await expand(item);
  // The first families are in view (the tree renders only visible rows); the catalog is the truth.
  for (const family of engagement.families.slice(0, 3)) {
    await treeItem(tree, family.name).and(tree.locator('[aria-level="2"]')).first().waitFor();
  }
  ctx.log(`${engagement.title}: ${engagement.families.length} families in the catalog`);
  await ctx.screenshot('services-view-families');
  // Leave the tree as the next test expects to find it: services collapsed.
  await item.click();
  await item.and(page.locator('[aria-expanded="false"]')).waitFor();
}
