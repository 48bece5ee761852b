// What a Send command sends: the CodeLens's {uri, requestIndex}, a Requests view node, or the request under
// the cursor of the active .http editor.
import * as vscode from 'vscode';
import { parseHttpFile } from '../../core/httpfile';
import type { RequestsNode } from '../requests/requestsTree';
import type { SendController, SendTarget } from './sendController';

/** CodeLens passes {uri, requestIndex}; the Requests view a request node; the palette the request under the cursor. */
export function sendFrom(target: SendTarget | RequestsNode | undefined, followPages: boolean, sender: SendController): Promise<unknown> {
  if (target && 'kind' in target && target.kind !== 'request') return Promise.resolve(undefined);
  const at = targetOf(target);
  return at ? sender.send(at, followPages) : Promise.resolve(undefined);
}

/** The request a command acts on (see sendFrom); undefined, said in a warning, when there is none. */
export function targetOf(target: SendTarget | RequestsNode | undefined): SendTarget | undefined {
  if (target && 'kind' in target) return target.kind === 'request' ? { uri: target.uri.toString(), requestIndex: target.index } : undefined;
  if (target?.uri !== undefined && typeof target.requestIndex === 'number') return target;
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'http') {
    void vscode.window.showWarningMessage('API Workbench: open a .http file and put the cursor in a request.');
    return undefined;
  }
  const line = editor.selection.active.line;
  const requests = parseHttpFile(editor.document.getText()).requests;
  const request = requests.find((r) => r.range.start.line <= line && line <= r.range.end.line)
    ?? [...requests].reverse().find((r) => r.range.start.line <= line)
    ?? requests[0];
  if (!request) {
    void vscode.window.showWarningMessage('API Workbench: this file has no request.');
    return undefined;
  }
  return { uri: editor.document.uri.toString(), requestIndex: request.index };
}
