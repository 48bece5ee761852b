// Compare Environments… against a stored response, in the real editor: the bookings request is sent in
// "sandbox-next" (the sandbox's next release, through the X-Sandbox-Choice header that environment sets),
// which History stores; back in "sandbox", Compare Environments… offers that stored response beside the
// environments; picked, the request is sent now (one page: the stored response is one page) and compared
// with it by bookingId. The view names the stored side by when and where it was received, says the sides
// differ, and lists the one booking of the first page the next release changes, with its status change.
import { runCommand, runCommandExactly } from './lib/workbench.mjs';
import { useTwoReleases } from './twoReleases.mjs';
import { clickInEditor, closeAllEditors, resultsPanel, writeAndOpen } from './panelWebview.mjs';

export const name = 'Compare Environments…: the request sent now against a stored response from History';
export const timeoutMs = 120_000;

const REQUEST = `### Bookings, against what History stored
# @name storedBookings
GET {{booking_base_url}}/bookings
X-Sandbox-Choice: {{sandbox_release}}
`;

let restore;

export async function cleanup(page) {
  await page.keyboard.press('Escape');
  if (restore) {
    await switchTo(page, 'sandbox').catch(() => {});
    restore();
  }
  restore = undefined;
  await closeAllEditors(page);
  await runCommandExactly(page, 'View: Close All Editor Groups');
  await runCommandExactly(page, 'View: Show Explorer');
}

/** The quick pick's row whose label is exactly `label`. */
async function pickExactly(page, label) {
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
  await row.waitFor({ timeout: 30_000 });
  await row.click();
}

async function switchTo(page, environment) {
  await runCommand(page, 'API Workbench: Switch Environment');
  await pickExactly(page, environment);
  await page.locator('.statusbar-item', { hasText: `${environment}:` }).first().waitFor({ timeout: 30_000 });
}

export async function run(page, ctx) {
  ctx.requireSandbox();
  restore = useTwoReleases(ctx);

  await writeAndOpen(page, ctx, 'compare-stored.http', REQUEST);
  // The first test of a fresh workbench: the extension loads its workbench bundle first (slow on a busy machine).
  await page.locator('.statusbar-item', { hasText: 'sandbox:' }).first().waitFor({ timeout: 60_000 });
  // The stored response: the next release's first page, as History keeps it.
  await switchTo(page, 'sandbox-next');
  await clickInEditor(page, 'GET {{booking_base_url}}');
  await runCommand(page, 'API Workbench: Send Request');
  await resultsPanel(page).getByTestId('status').filter({ hasText: /^200/ }).waitFor({ timeout: 30_000 });
  await closeAllEditors(page);
  await switchTo(page, 'sandbox');

  await writeAndOpen(page, ctx, 'compare-stored.http', REQUEST);
  await clickInEditor(page, 'GET {{booking_base_url}}');
  await runCommand(page, 'API Workbench: Compare Environments…');
  const stored = page.locator('.quick-input-widget .monaco-list-row', { hasText: /stored .*HTTP 200 · sandbox-next/ }).first();
  await stored.waitFor({ timeout: 30_000 });
  await stored.click();
  // No "how much" question: a stored response is one page.
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-widget', { hasText: 'the field that identifies a record' }).waitFor();
  await input.fill('bookingId');
  await input.press('Enter');

  const view = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
  await view.locator('span.verdict.differ').first().waitFor({ timeout: 60_000 });
  const perPage = ctx.sandbox.samples.bookingsPerPage;
  await view.getByText(`added 0, removed 0, changed 1, unchanged ${perPage - 1}`).waitFor();
  // The sides, named once under the title: the stored response by when and where it was received.
  await view.locator('dl.sides dd', { hasText: /^stored .+ \(sandbox-next\)$/ }).waitFor();
  await view.locator('dl.sides dd', { hasText: /^sandbox, sent now$/ }).waitFor();
  await view.locator('tr.changed code', { hasText: 'BK-000006' }).waitFor();
  // A record with one field change shows it as it is (several fold under the fields they touch).
  await view.locator('tr.changed ul.fields code.path', { hasText: 'status' }).first().waitFor();
  await ctx.screenshot('compare-stored');
}
