// A citation opens the contract: hover on a request line of README.http shows its contract section as a
// link ("customer-engagement contract §4.2"); clicking it opens the shipped reference in the Markdown
// preview, scrolled to that section's heading.
import { editorLine, openFile, runCommandExactly } from './lib/workbench.mjs';

export const name = 'A citation link in a hover opens the contract reference at the cited section';
export const timeoutMs = 60_000;

export async function run(page, ctx) {
  await openFile(page, 'README.http');
  const line = editorLine(page, 'GetOrdersByCustomer?ctcID');
  await line.waitFor();
  // The language server answers once its CodeLenses stand above the requests.
  await page.locator('.editor-group-container.active .monaco-editor .codelens-decoration').first().waitFor({ timeout: 30_000 });
  // The method token of the request line: its hover describes the operation and cites its section.
  await line.locator('span', { hasText: /^GET/ }).first().hover();
  const hover = page.locator('.monaco-hover').filter({ hasText: 'customer-engagement contract §4.2' }).first();
  await hover.waitFor({ state: 'visible', timeout: 30_000 });
  await ctx.screenshot('citation-hover');

  await hover.getByRole('link', { name: 'customer-engagement contract §4.2' }).first().click();
  await page.getByRole('tab', { name: /^Preview engagement\.md/ }).waitFor({ timeout: 30_000 });
  const preview = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
  const heading = preview.locator('h3', { hasText: '§4.2 Operations known by how they page' });
  await heading.waitFor();
  // Scrolled to the section: its heading reaches the top of the preview (waits in the page, no sleep).
  await heading.evaluate((element) => new Promise((resolve) => {
    const check = () => (element.getBoundingClientRect().top < 120 ? resolve(true) : requestAnimationFrame(check));
    check();
  }));
  ctx.log(`preview heading id: ${await heading.getAttribute('id')}`);
  await ctx.screenshot('citation-contract-section');
}

export async function cleanup(page) {
  await runCommandExactly(page, 'View: Close All Editor Groups');
  await page.locator('iframe.webview').first().waitFor({ state: 'detached' }).catch(() => {});
}
