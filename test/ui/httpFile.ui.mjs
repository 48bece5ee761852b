// Open the workspace's README.http: the editor treats it as an `http` document (the language the
// extension contributes) and the Services view stays available beside it.
import { openFile } from './lib/workbench.mjs';

export const name = 'a .http file of the workspace opens as an HTTP request document';

export async function run(page, ctx) {
  await openFile(page, 'README.http');
  await page.locator('.statusbar').getByRole('button', { name: /HTTP request/i }).first().waitFor();
  await page.locator('.monaco-editor .view-lines', { hasText: 'GetOrdersByCustomer' }).first().waitFor();
  await ctx.screenshot('readme-http');
}
