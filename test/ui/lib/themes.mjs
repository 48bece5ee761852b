// The four built-in theme kinds, switched through the `workbench.colorTheme` setting (in the test
// workspace's .vscode/settings.json, which the editor watches), and awaited where each shows: the
// workbench's theme class and the results webview's theme kind.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const THEMES = [
  { name: 'Default Light Modern', slug: 'light', workbench: 'vs', webview: 'vscode-light' },
  { name: 'Default Dark Modern', slug: 'dark', workbench: 'vs-dark', webview: 'vscode-dark' },
  { name: 'Default High Contrast', slug: 'hc-dark', workbench: 'hc-black', webview: 'vscode-high-contrast' },
  { name: 'Default High Contrast Light', slug: 'hc-light', workbench: 'hc-light', webview: 'vscode-high-contrast-light' },
];

const settingsFile = (workspace) => join(workspace, '.vscode', 'settings.json');

/** Sets workbench.colorTheme for the workspace and waits until the workbench wears the theme. */
export async function setColorTheme(page, workspace, theme) {
  const file = settingsFile(workspace);
  const settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...settings, 'workbench.colorTheme': theme.name }, null, 2));
  await page.locator(`.monaco-workbench.${theme.workbench}`).waitFor({ timeout: 30_000 });
}

/** Takes the theme setting out again: the editor returns to its default theme. */
export async function resetColorTheme(workspace) {
  const file = settingsFile(workspace);
  if (!existsSync(file)) return;
  const { 'workbench.colorTheme': _theme, ...rest } = JSON.parse(readFileSync(file, 'utf8'));
  if (Object.keys(rest).length === 0) rmSync(join(workspace, '.vscode'), { recursive: true, force: true });
  else writeFileSync(file, JSON.stringify(rest, null, 2));
}

/** Waits until the results webview has the theme's kind (VS Code restyles it without a reload). */
export async function waitForPanelTheme(frame, theme) {
  await frame.locator(`body[data-vscode-theme-kind="${theme.webview}"]`).waitFor();
}
