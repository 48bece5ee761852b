// The request a History entry was sent from, as its file is now (core/history/requestNow.ts), for the
// actions that send it again: Re-run and Compare Environments…. When it cannot be found the user is
// told why, once, in the action's words.
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../core/history';
import { requestIndexNow } from '../../core/history/requestNow';
import { parseHttpFile } from '../../core/httpfile';
import type { SendTarget } from '../send/sendController';
import { entryLabel } from './historyTree';

/** The entry's request in its file now, or undefined after saying why `action` cannot send it. */
export async function entryTarget(entry: HistoryEntry, action: string): Promise<SendTarget | undefined> {
  const label = entryLabel(entry);
  if (!entry.origin) {
    void vscode.window.showWarningMessage(`API Workbench: ${label} was not sent from a file, so ${action} cannot send it again; save it to a collection first.`);
    return undefined;
  }
  const uri = vscode.Uri.parse(entry.origin.file);
  let text: string;
  try {
    text = (await vscode.workspace.openTextDocument(uri)).getText();
  } catch {
    void vscode.window.showWarningMessage(`API Workbench: ${vscode.workspace.asRelativePath(uri)} no longer exists, so ${action} cannot send ${label} again.`);
    return undefined;
  }
  const index = requestIndexNow(parseHttpFile(text), entry);
  if (index === undefined && entry.name === undefined && entry.source === undefined) {
    void vscode.window.showWarningMessage(`API Workbench: History did not record enough of ${label} to find it in ${vscode.workspace.asRelativePath(uri)}, so ${action} sends nothing.`);
    return undefined;
  }
  if (index === undefined) {
    void vscode.window.showWarningMessage(`API Workbench: ${vscode.workspace.asRelativePath(uri)} has changed and no request in it is ${label} any more, so ${action} sends nothing.`);
    return undefined;
  }
  return { uri: uri.toString(), requestIndex: index };
}
