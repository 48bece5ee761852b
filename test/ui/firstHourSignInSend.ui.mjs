// Send while signed out signs in and then sends what was asked: with every credential forgotten, the Send
// lens of an engagement request opens the sign-in prompt at once; the password typed there signs in, and
// the request goes without a second press (the panel shows its 200).
import { runCommand } from './lib/workbench.mjs';
import { closeAllEditors, resultsPanel, writeAndOpen } from './panelWebview.mjs';

export const name = 'Send while signed out: the sign-in prompt, then the request is sent';
export const timeoutMs = 90_000;
export const cleanup = closeAllEditors;

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  // Signed out for sure: earlier suites may have signed in, in this profile.
  await runCommand(page, 'API Workbench: Forget All Credentials');
  await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Forget All' }).click();
  await page.locator('.monaco-dialog-box').waitFor({ state: 'detached' });

  await writeAndOpen(page, ctx, 'signed-out-send.http', [
    '### Orders of the sample customer', '# @name signedOutOrders',
    'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctc_id}}&pageNumber=1&pageSize=5',
    'Authorization: Bearer {{$auth.token("engagement")}}', '',
  ].join('\n'));
  const lenses = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration').first();
  await lenses.waitFor({ timeout: 30_000 });
  await lenses.locator('a', { hasText: /^Send$/ }).click();

  // The prompt, at once (not an error with a button to find).
  const prompt = page.locator('.quick-input-widget', { hasText: 'Sign in: engagement' });
  await prompt.waitFor({ timeout: 30_000 });
  await ctx.screenshot('signed-out-send-prompt');
  await prompt.locator('input').fill(sandbox.credentials.engagement.password);
  await prompt.locator('input').press('Enter');

  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  await panel.locator('.rows .grid-row').first().waitFor();
  await ctx.screenshot('signed-out-send-sent');
}
