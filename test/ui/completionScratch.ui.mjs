// Issue 5 in the browser: a request scratch for SurveyApi/AddFeedbackScoreQuestion ("New Request Scratch"
// from the palette); with its ScoreRange line removed, Ctrl+Space in the JSON body lists ScoreRange, and at
// its value the two enum values with their meanings. Screenshots of both lists.
import { editorLine, openFile, runCommand, runCommandExactly, suggestRow, triggerSuggest } from './lib/workbench.mjs';

export const name = 'completion in a request scratch lists ScoreRange, then its two values with their meanings';
export const timeoutMs = 60_000;

const OPERATION = 'SurveyApi/AddFeedbackScoreQuestion';

export async function run(page, ctx) {
  // An opened .http file activates the extension; before the workbench knows it, the palette lacks its commands.
  await openFile(page, 'README.http');
  await page.locator('.statusbar').getByRole('button', { name: /HTTP request/i }).first().waitFor();
  await runCommand(page, 'API Workbench: New Request Scratch');
  const input = page.locator('.quick-input-widget input');
  await input.fill(OPERATION);
  // Clicked, not Enter: Enter may land before the list is filtered and open the first operation instead.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: OPERATION }).first().click();
  // Earlier runs in this profile (the editor suites) may have made AddFeedbackScoreQuestion.http already.
  await page.getByRole('tab', { name: /^AddFeedbackScoreQuestion(-\d+)?\.http/ }).waitFor();

  // Empty the ScoreRange line: completion offers only keys not yet in the body.
  await editorLine(page, '"ScoreRange": 0,').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Delete');
  await editorLine(page, '"ScoreRange"').waitFor({ state: 'detached' });

  const keys = await triggerSuggest(page);
  await suggestRow(keys, 'ScoreRange').waitFor({ timeout: 20_000 });
  // Ctrl+Space again opens the item's details: the field's meaning and its enum values.
  await page.keyboard.press('Control+Space');
  await page.locator('.suggest-details', { hasText: 'OneToFive' }).waitFor();
  ctx.log(`keys offered: ${(await keys.locator('.monaco-list-row').allTextContents()).join(' | ')}`);
  await ctx.screenshot('completion-scorerange');
  await page.keyboard.press('Escape');
  await keys.waitFor({ state: 'hidden' });

  // At the value: "0 — OneToFive" and "1 — ZeroToTen".
  await page.keyboard.type('"ScoreRange": ');
  await page.keyboard.press('Escape'); // a list the typing itself may have opened
  const values = await triggerSuggest(page);
  await suggestRow(values, '0 — OneToFive').waitFor({ timeout: 20_000 });
  await suggestRow(values, '1 — ZeroToTen').waitFor();
  const rows = await values.locator('.monaco-list-row').allTextContents();
  ctx.log(`values offered: ${rows.join(' | ')}`);
  await ctx.screenshot('completion-scorerange-values');
  await page.keyboard.press('Escape');

  // Leave the scratch as it was made (revert the typing) and close it: the next test starts with no editor.
  await runCommandExactly(page, 'File: Revert File');
  await runCommandExactly(page, 'View: Close Editor');
  await page.getByRole('tab', { name: /^AddFeedbackScoreQuestion(-\d+)?\.http/ }).waitFor({ state: 'detached' });
}
