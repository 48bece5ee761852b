// The results panel in the real editor shows the business-error banner for a SurveyApi call that fails
// inside an HTTP 200: code 14 with both of its published catalogue meanings and the note on the status.
// Signs in to the sandbox's engagement service first (password typed into the editor's password box).
import { runCommand } from './lib/workbench.mjs';
import { clickInEditor, resultsPanel, closeAllEditors, writeAndOpen } from './panelWebview.mjs';

export const name = 'results panel: a SurveyApi failure inside a 200 shows the business-error banner with code 14';
export const timeoutMs = 90_000;

const REQUEST = `### SurveyApi: a QuestionID the service never allocated (code 14 inside an HTTP 200)
# @name surveyUnknownQuestion
POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion
Authorization: Bearer {{$auth.token("engagement")}}
Content-Type: application/json

{
  "ErrorMessage": "Please choose one option",
  "OpCode": 1001,
  "QuestionID": 987654,
  "QuestionLabel": "How did you hear about us?",
  "QuestionSubType": "Single",
  "QuestionType": "Choice",
  "Choices": [{ "ID": 1, "Label": "A friend", "Order": 1 }]
}
`;

// The next test starts from a calm workbench (the Services test finds its tab by name).
export const cleanup = closeAllEditors;

export async function run(page, ctx) {
  const sandbox = ctx.requireSandbox();
  const file = 'panel-survey.http';
  // Opening a .http file activates the extension: its commands are in the palette from then on.
  await writeAndOpen(page, ctx, file, REQUEST);
  await signIn(page, ctx, sandbox.credentials.engagement.password);
  await clickInEditor(page, 'AddChoiceQuestion');
  await runCommand(page, 'API Workbench: Send Request');

  const panel = resultsPanel(page);
  const banner = panel.getByTestId('business-banner');
  await banner.waitFor({ timeout: 30_000 });
  const text = (await banner.textContent()) ?? '';
  for (const expected of ['Code 14', 'Invalid SessionID · or · Invalid Question ID', 'HTTP status was 200', 'SurveyApi']) {
    if (!text.includes(expected)) throw new Error(`the banner lacks "${expected}": ${text}`);
  }
  await panel.getByTestId('status').filter({ hasText: /^200/ }).waitFor();
  ctx.log(`banner: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
  await ctx.screenshot('panel-business-error');
}

/** Signs in to the active environment's engagement entry (the sample workspace's "sandbox"). */
async function signIn(page, ctx, password) {
  // A session an earlier test opened is kept (the profile is shared by the UI tests): then there is nothing to do.
  const state = await Promise.race([
    page.locator('.statusbar', { hasText: /engagement signed out/ }).waitFor().then(() => 'out'),
    page.locator('.statusbar', { hasText: /engagement .* left/ }).waitFor().then(() => 'in'),
  ]);
  if (state === 'in') return;
  await runCommand(page, 'API Workbench: Sign In');
  const input = page.locator('.quick-input-widget input[type="password"]');
  await input.waitFor().catch(async (error) => {
    await ctx.screenshot('FAILED-panelBusinessError-sign-in');
    throw error;
  });
  await input.fill(password);
  await input.press('Enter');
  // Signed in: the status bar's countdown replaces "signed out".
  await page.locator('.statusbar', { hasText: /engagement .*left/ }).waitFor({ timeout: 30_000 });
}
