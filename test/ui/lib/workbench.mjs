// Workbench moves the UI tests share. Locators by role and name, as a user (or a screen reader) sees
// the workbench; every wait is on a locator, never a fixed sleep.

export const SERVICE_TITLES = ['Customer-engagement service', 'Fundraising service', 'Booking service'];

/** Clicks the "API Workbench" activity-bar tab (unless its view is already showing); returns the Services tree. */
export async function openServicesView(page) {
  const tree = servicesTree(page);
  if (!(await tree.isVisible())) {
    // In the activity bar: an editor tab such as "API Workbench results" would match the name too.
    await page.locator('.monaco-workbench .activitybar').getByRole('tab', { name: /^API Workbench/ }).click();
  }
  await tree.waitFor({ state: 'visible' });
  return tree;
}

/** The Services view's tree widget (inside the API Workbench view container). */
export function servicesTree(page) {
  return page.locator('[id="workbench.view.extension.apiWorkbench"]').getByRole('tree', { name: 'Services' });
}

/**
 * The tree item whose visible label starts with `title`. Matched on text, not on the accessible name:
 * VS Code uses a string tooltip as the row's aria-label.
 */
export function treeItem(scope, title) {
  return scope.getByRole('treeitem').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(title)}`) });
}

/** Expands a collapsed tree item and waits until the tree says it is expanded. */
export async function expand(item) {
  if ((await item.getAttribute('aria-expanded')) !== 'true') await item.click();
  await item.and(item.page().locator('[aria-expanded="true"]')).waitFor();
}

/** Runs a command through the command palette, e.g. runCommand(page, 'API Workbench: Refresh Services'). */
export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor();
  await input.press('Enter');
}

/**
 * Like runCommand, but presses Enter only once the palette's focused row is that command: with several
 * matches, a recently used command may come first and Enter would run it instead.
 */
export async function runCommandExactly(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor();
  await row.click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** Opens a workspace file through Quick Open (Ctrl+P) and waits for its editor tab. */
export async function openFile(page, fileName) {
  const tab = page.getByRole('tab', { name: new RegExp(`^${escapeRegExp(fileName)}`) });
  // Twice at most: a Quick Open typed into while the workbench still moves focus can lose its input.
  for (let attempt = 0; attempt < 2; attempt++) {
    await page.locator('.monaco-workbench').press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.fill(fileName);
    // Click the file's own row: Enter would open whichever row is selected, which can still be a
    // recently opened file while the list filters.
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: fileName }).first();
    await row.waitFor();
    await row.click();
    if (await tab.waitFor({ timeout: 10_000 }).then(() => true, () => false)) return;
    await page.keyboard.press('Escape');
  }
  await tab.waitFor();
}

/** The active editor's line showing `text` (the editor renders only the lines in view). */
export function editorLine(page, text) {
  return page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: text }).first();
}

/** Opens the suggest widget at the cursor (Ctrl+Space) and returns it. */
export async function triggerSuggest(page) {
  await page.keyboard.press('Control+Space');
  const widget = page.locator('.editor-widget.suggest-widget');
  await widget.waitFor({ state: 'visible' });
  return widget;
}

/** A row of the suggest widget whose label contains `label`. */
export function suggestRow(widget, label) {
  return widget.locator('.monaco-list-row', { hasText: label }).first();
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
