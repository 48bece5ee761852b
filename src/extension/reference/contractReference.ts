// "Open Contract Reference": opens the shipped reference of a service's contract (docs/contracts/) in
// the Markdown preview, scrolled to the cited section. Citation links in hovers, tree tooltips and
// completion documentation run it with { seed, section }; from the command palette it asks which contract.
import * as vscode from 'vscode';
import { CONTRACT_DOCUMENTS, CONTRACT_REFERENCE_DIR, findSection, isContractId, parseCitation, type Citation } from '../../core/reference';
import { faultText } from '../../core/text/faultText';

/** Resolves to the section's anchor when it was found, '' for the document's top, undefined when nothing opened. */
export async function openContractReference(extensionUri: vscode.Uri, argument: unknown): Promise<string | undefined> {
  const citation = argument === undefined ? await pickContract() : parseCitation(argument);
  if (!citation) {
    if (argument !== undefined) void vscode.window.showErrorMessage('API Workbench: that is not a section of a published contract.');
    return undefined;
  }
  const uri = vscode.Uri.joinPath(extensionUri, CONTRACT_REFERENCE_DIR, CONTRACT_DOCUMENTS[citation.seed].file);
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    void vscode.window.showErrorMessage(`API Workbench: the contract reference ${CONTRACT_DOCUMENTS[citation.seed].file} is missing from this installation (${faultText(error)}).`);
    return undefined;
  }
  const section = findSection(text, citation.section);
  if (!section) void vscode.window.showWarningMessage(`API Workbench: §${citation.section} has no heading in the ${CONTRACT_DOCUMENTS[citation.seed].name} reference; showing its top.`);
  try {
    // The built-in Markdown extension activates on this command (getCommands() would not list it yet).
    await vscode.commands.executeCommand('markdown.showPreview', section ? uri.with({ fragment: section.anchor }) : uri);
  } catch {
    // Without the built-in Markdown extension: the text at the heading.
    const line = section?.line ?? 0;
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(line, 0, line, 0), preview: true });
  }
  return section?.anchor ?? '';
}

async function pickContract(): Promise<Citation | undefined> {
  const picked = await vscode.window.showQuickPick(
    Object.entries(CONTRACT_DOCUMENTS).map(([seed, doc]) => ({ label: doc.name, seed })),
    { title: 'API Workbench: Open Contract Reference' },
  );
  return picked && isContractId(picked.seed) ? { seed: picked.seed, section: picked.seed === '002' ? 'Endpoints' : '1' } : undefined;
}
