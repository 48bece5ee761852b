// Issue 5 in the real editor: the language server behind a request scratch answers the editor's own
// providers — completion of a missing body key and of its enum values with their meanings, hover on a
// body key, diagnostics for an unknown field, and the "Send" / "Send and follow pages" CodeLenses.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activatedApi } from './extensionUnderTest';
import { positionAfter, replaceInDocument, whenTrue } from './editorHelpers';

const OPERATION = 'engagement/SurveyApi/AddFeedbackScoreQuestion';

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
}

async function completionLabels(document: vscode.TextDocument, position: vscode.Position): Promise<string[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
  return list.items.map(labelOf);
}

describe('language server in the editor (issue 5)', () => {
  let document: vscode.TextDocument;

  before(async () => {
    const api = await activatedApi();
    const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('apiWorkbench.newScratch', OPERATION);
    assert.ok(uri, 'New Request Scratch returned the scratch file');
    assert.ok(uri.path.startsWith(api.scratches.folder.path), 'the scratch is kept in the extension storage');
    document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.languageId, 'http');
    assert.match(document.getText(), /"ScoreRange": 0,\n/, 'the skeleton holds ScoreRange with its default');
  });

  it('completes ScoreRange as a body key once it is no longer in the body, with its type', async () => {
    await replaceInDocument(document, '  "ScoreRange": 0,\n', '');
    await replaceInDocument(document, '{\n', '{\n  \n');
    const position = positionAfter(document, '{\n  ');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
    const item = list.items.find((i) => labelOf(i) === 'ScoreRange');
    assert.ok(item, `ScoreRange among ${list.items.map(labelOf).join(', ')}`);
    assert.match(`${item.detail ?? ''} ${typeof item.documentation === 'string' ? item.documentation : (item.documentation?.value ?? '')}`, /integer/);
    assert.ok(!list.items.some((i) => labelOf(i) === 'OpCode'), 'a key already present is not offered again');
    await replaceInDocument(document, '{\n  \n', '{\n');
  });

  it('completes the two ScoreRange values with their meanings', async () => {
    await replaceInDocument(document, '{\n', '{\n  "ScoreRange": ,\n');
    const labels = await completionLabels(document, positionAfter(document, '"ScoreRange": '));
    assert.deepEqual(labels.filter((l) => /OneToFive|ZeroToTen/.test(l)), ['0 — OneToFive', '1 — ZeroToTen']);
    await replaceInDocument(document, '"ScoreRange": ,', '"ScoreRange": 1,');
  });

  it('hovers a body key with its meaning, type and nullability', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, positionAfter(document, '"Op'));
    const text = hoverText(hovers);
    assert.match(text, /survey identifier/);
    assert.match(text, /integer int32/);
    assert.match(text, /not nullable/);
    assert.match(text, /customer-engagement contract §2\.1/);
  });

  it('reports an unknown body field as a diagnostic', async () => {
    const unknownAt = (): vscode.Diagnostic | undefined =>
      vscode.languages.getDiagnostics(document.uri).find((d) => d.message.includes('NotAField'));
    const arrived = whenTrue(vscode.languages.onDidChangeDiagnostics, unknownAt, 'a diagnostic on "NotAField"');
    await replaceInDocument(document, '{\n', '{\n  "NotAField": true,\n');
    const diagnostic = await arrived;
    assert.equal(document.getText(diagnostic.range).replace(/"/g, ''), 'NotAField');
    assert.match(diagnostic.message, /unknown|not a field|not documented/i);
    // Removing it clears the diagnostic again.
    const cleared = whenTrue(vscode.languages.onDidChangeDiagnostics, () => (unknownAt() ? undefined : true), 'the diagnostic to clear');
    await replaceInDocument(document, '  "NotAField": true,\n', '');
    await cleared;
  });

  it('gives "Send" and "Send and follow pages" CodeLenses on the request line', async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.includes('Send'), titles.join(', '));
    assert.ok(titles.some((t) => t.startsWith('Send and follow pages')), titles.join(', '));
    const requestLine = positionAfter(document, 'POST ').line;
    for (const lens of lenses) {
      assert.equal(lens.range.start.line, requestLine);
      assert.deepEqual(lens.command?.arguments, [{ uri: document.uri.toString(), requestIndex: 0 }]);
    }
    assert.deepEqual(lenses.map((l) => l.command?.command).sort(), ['apiWorkbench.send', 'apiWorkbench.sendAndFollowPages']);
  });

  it('offers no word-based suggestions in .http files (the extension\'s [http] default)', () => {
    assert.equal(vscode.workspace.getConfiguration('editor', { languageId: 'http' }).get('wordBasedSuggestions'), 'off');
    assert.equal(document.languageId, 'http');
  });

  it('"Open Contract Reference" opens the shipped reference at a cited section; a forged argument opens nothing', async () => {
    const anchor = await vscode.commands.executeCommand<string | undefined>('apiWorkbench.openContractReference', { seed: '001', section: '5.1' });
    assert.equal(anchor, '51-basic--x-api-key-for-integrations');
    // The Markdown preview's tab appears once the preview panel is created.
    const previewTab = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /fundraising\.md/.test(t.label));
    const tab = await whenTrue(vscode.window.tabGroups.onDidChangeTabs, previewTab, 'a tab showing fundraising.md');
    assert.match(tab.label, /^Preview fundraising\.md/);
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.openContractReference', { seed: '001', section: '../../../etc/passwd' }), undefined);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
