// A diagnostic names its contract section and links it: pageSize=900 on GetOrdersByCustomer is above the
// published maximum; the hover on it shows the problem with its code as a link, which opens the shipped
// contract reference at the section's line (a file link, so it works in the hover and the Problems view).
import { editorLine, runCommandExactly } from './lib/workbench.mjs';
import { writeAndOpen } from './panelWebview.mjs';

export const name = 'A diagnostic names its contract section and its code link opens the contract reference there';
export const timeoutMs = 60_000;

export async function run(page, ctx) {
  await writeAndOpen(page, ctx, 'cite-limits.http', 'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=1&pageSize=900\n');
  const line = editorLine(page, 'pageSize=900');
  await line.waitFor();
  // The squiggle is there once the server has checked the file.
  const squiggle = page.locator('.editor-group-container.active .monaco-editor .squiggly-warning').first();
  await squiggle.waitFor({ timeout: 30_000 });
  const hover = page.locator('.monaco-hover').filter({ hasText: 'customer-engagement contract §8' }).first();
  // The editor shows a hover for a pointer that moves onto the word: on a busy machine one move can come
  // before the marker is ready and show nothing, so the pointer leaves and comes back (at most 4 times).
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(0, 0);
    await line.locator('span', { hasText: /^900$/ }).hover();
    try {
      await hover.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
  await ctx.screenshot('diagnostic-citation-hover');
  await hover.locator('a.code-link', { hasText: 'out-of-range' }).click();
  await page.getByRole('tab', { name: /^engagement\.md/ }).waitFor({ timeout: 30_000 });
  // The editor shows the reference at the section's heading.
  await editorLine(page, '## §8 Limits').waitFor();
  await ctx.screenshot('diagnostic-citation-reference');
}

export async function cleanup(page) {
  await runCommandExactly(page, 'View: Close All Editor Groups');
}
