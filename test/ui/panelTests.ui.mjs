// The results panel in the real editor: Send on a booking-service request (no auth) with two `??`
// assertions shows the Tests section with one passing and one failing assertion, the failure's expected
// and actual values, and the JetBrains response handler reported as not run.
import { runCommand } from './lib/workbench.mjs';
import { clickInEditor, resultsPanel, closeAllEditors, writeAndOpen } from './panelWebview.mjs';

export const name = 'results panel: the Tests section shows a passing and a failing assertion';
export const timeoutMs = 90_000;

export const cleanup = closeAllEditors;

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  const file = 'panel-tests.http';
  await writeAndOpen(page, ctx, file, [
    '### Bookings with assertions',
    '# @name bookingsChecked',
    `GET ${sandbox.booking.baseUrl}/bookings?page=1`,
    '',
    '?? status == 200',
    '?? rows > 100000',
    '',
    '> {% client.test("kept, not run", function () {}); %}',
    '',
  ].join('\n'));
  await clickInEditor(page, '/bookings?page=1');
  await runCommand(page, 'API Workbench: Send Request');

  const panel = resultsPanel(page);
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  const section = panel.getByRole('region', { name: 'Tests: 1 passed, 1 failed' });
  await section.waitFor({ timeout: 30_000 });
  const passed = (await section.getByTestId('test-passed').textContent()) ?? '';
  const failed = (await section.getByTestId('test-failed').textContent()) ?? '';
  if (!/Passed\?\? status == 200line 5/.test(passed)) throw new Error(`passing assertion: ${passed}`);
  if (!/Failed\?\? rows > 100000line 6expected > 100000, actual \d+/.test(failed)) throw new Error(`failing assertion: ${failed}`);
  const notRun = (await section.locator('ul.not-run').textContent()) ?? '';
  if (!/Not runresponse handler script \(> \{% %\}\), line 8/.test(notRun)) throw new Error(`not run: ${notRun}`);
  ctx.log(`tests: ${passed} | ${failed} | ${notRun}`);
  await ctx.screenshot('panel-tests-section');
}
