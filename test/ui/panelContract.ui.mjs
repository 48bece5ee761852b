// The results panel in the real editor shows the Contract section for a booking page the sandbox was told
// to drift (X-Sandbox-Fault: drift drops X-Pagination-Total-Pages): the finding, its path and the contract
// section it is measured against. The booking service publishes no authentication, so no sign-in is needed.
import { runCommand } from './lib/workbench.mjs';
import { clickInEditor, resultsPanel, closeAllEditors, writeAndOpen } from './panelWebview.mjs';

export const name = 'results panel: a drifting booking page shows the Contract section with the missing paging header';
export const timeoutMs = 90_000;

const REQUEST = `### Bookings, page 1, from a sandbox told to drift from the contract
# @name driftingBookings
GET {{booking_base_url}}/bookings
X-Sandbox-Fault: drift
`;

export const cleanup = closeAllEditors;

export async function run(page, ctx) {
  ctx.requireSandbox();
  await writeAndOpen(page, ctx, 'panel-contract.http', REQUEST);
  // The env file is loaded (its environment is named in the status bar) before {{booking_base_url}} is used.
  await page.locator('.statusbar', { hasText: /sandbox: engagement/ }).waitFor({ timeout: 30_000 });
  await clickInEditor(page, 'GET {{booking_base_url}}');
  await runCommand(page, 'API Workbench: Send Request');

  const panel = resultsPanel(page);
  const section = panel.getByRole('region', { name: /Contract: 1 finding against booking\/Bookings\/ListBookings/ });
  await section.waitFor({ timeout: 30_000 });
  const text = (await section.textContent()) ?? '';
  for (const expected of ['Paging header missing', 'header:X-Pagination-Total-Pages', 'seed 002 §Endpoints']) {
    if (!text.includes(expected)) throw new Error(`the Contract section lacks "${expected}": ${text}`);
  }
  ctx.log(`contract: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
  await ctx.screenshot('panel-contract-section');
}
