// Compare Environments… in the real editor: a booking walk sent in "sandbox" and in "sandbox-next" (the
// same sandbox asked for its next release through the X-Sandbox-Choice header the environment sets),
// compared by bookingId. The comparison view says the sides differ, counts the records, lists the
// changed bookings (the next release flips the status of the booking at index 5 mod 40), filters them,
// and a changed record shows its field change. No sign-in: the booking service has none.
import { runCommand, runCommandExactly } from './lib/workbench.mjs';
import { useTwoReleases } from './twoReleases.mjs';
import { clickInEditor, closeAllEditors, writeAndOpen } from './panelWebview.mjs';

export const name = 'Compare Environments…: a walk on two environments, record by record, in its own view';
export const timeoutMs = 120_000;

const REQUEST = `### Bookings on two releases
# @name compareBookings
GET {{booking_base_url}}/bookings
X-Sandbox-Choice: {{sandbox_release}}
`;

let restore;

export async function cleanup(page) {
  restore?.();
  restore = undefined;
  await page.keyboard.press('Escape');
  await closeAllEditors(page);
  await runCommandExactly(page, 'View: Close All Editor Groups');
  await runCommandExactly(page, 'View: Show Explorer');
}

async function pick(page, text) {
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout: 30_000 });
  await row.click();
}

export async function run(page, ctx) {
  ctx.requireSandbox();
  restore = useTwoReleases(ctx);

  await writeAndOpen(page, ctx, 'compare-environments.http', REQUEST);
  // The first test of a fresh workbench: the extension loads its workbench bundle first (slow on a busy machine).
  await page.locator('.statusbar', { hasText: /sandbox/ }).first().waitFor({ timeout: 60_000 });
  await clickInEditor(page, 'GET {{booking_base_url}}');
  await runCommand(page, 'API Workbench: Compare Environments…');
  await pick(page, 'sandbox-next');
  await pick(page, 'All pages');
  // The key's input box replaces the pick: wait for its own title, so the typing goes into it, not the editor.
  await page.locator('.quick-input-widget', { hasText: 'the field that identifies a record' }).waitFor({ timeout: 30_000 });
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill('bookingId');
  await input.press('Enter');

  const view = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
  await view.locator('span.verdict.differ').first().waitFor({ timeout: 60_000 });
  const total = ctx.sandbox.samples.bookings;
  const changed = Array.from({ length: total }, (_, i) => i).filter((i) => i % 40 === 5).length;
  await view.getByText(`added 0, removed 0, changed ${changed}, unchanged ${total - changed}`).waitFor();
  await view.getByText(`Changed (${changed})`).click();
  // A record with one field change shows it as it is (several fold under the fields they touch).
  await view.locator('tr.changed ul.fields code.path', { hasText: 'status' }).first().waitFor();
  await ctx.screenshot('compare-environments');
}
