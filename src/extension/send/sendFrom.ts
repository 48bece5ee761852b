// What a Send command sends: the CodeLens's {uri, requestIndex}, a Requests view node, or the request under
// the cursor of the active .http editor.
import * as vscode from 'vscode';
import { parseHttpFile } from '../../core/httpfile';
import type { RequestsNode } from '../requests/requestsTree';
import type { SendController, SendTarget } from './sendController';

/** CodeLens passes {uri, requestIndex}; the Requests view a request node; the palette the request under the cursor. */
export function sendFrom(target: SendTarget | RequestsNode | undefined, followPages: boolean, sender: SendController): Promise<unknown> {
  if (target && 'kind' in target) {
    return target.kind === 'request' ? sender.send({ uri: target.uri.toString(), requestIndex: target.index }, followPages) : Promise.resolve(undefined);
  }
  if (target?.uri !== undefined && typeof target.requestIndex === 'number') return sender.send(target, followPages);
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'http') {
    void vscode.window.showWarningMessage('API Workbench: open a .http file and put the cursor in a request to send it.');
    return Promise.resolve(undefined);
  }
  const line = editor.selection.active.line;
  const requests = parseHttpFile(editor.document.getText()).requests;
  const request = requests.find((r) => r.range.start.line <= line && line <= r.range.end.line)
    ?? [...requests].reverse().find((r) => r.range.start.line <= line)
    ?? requests[0];
  if (!request) {
    void vscode.window.showWarningMessage('API Workbench: this file has no request to send.');
    return Promise.resolve(undefined);
  }
  return sender.send({ uri: editor.document.uri.toString(), requestIndex: request.index }, followPages);
}
