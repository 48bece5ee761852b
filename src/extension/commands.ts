// Registers every command of COMMANDS (commandIds.ts). scripts/check-contributions.ts fails the build when
// package.json's contributes.commands, COMMANDS and the registerCommand calls here disagree.
import * as vscode from 'vscode';
import type { Catalog, Operation } from '../core/catalog';
import { parseHttpFile } from '../core/httpfile';
import { COMMANDS } from './commandIds';
import type { CredentialCommands } from './credentials/credentialCommands';
import type { RequestsNode, RequestsTreeProvider } from './requests/requestsTree';
import type { ScratchFiles } from './requests/scratchFiles';
import type { SendController, SendTarget } from './send/sendController';
import type { ServicesNode, ServicesTreeProvider } from './servicesTree';

export interface CommandDeps {
  readonly catalog: () => Catalog;
  readonly servicesTree: ServicesTreeProvider;
  readonly requestsTree: RequestsTreeProvider;
  readonly scratches: ScratchFiles;
  readonly credentials: CredentialCommands;
  readonly sender: SendController;
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.refreshServices, () => deps.servicesTree.refresh()),
    vscode.commands.registerCommand(COMMANDS.refreshRequests, () => deps.requestsTree.refresh()),
    vscode.commands.registerCommand(COMMANDS.newScratch, async (node?: ServicesNode | string) => {
      const op = await operationFrom(node, deps.catalog());
      if (!op) return undefined;
      const uri = await deps.scratches.create(op);
      await vscode.window.showTextDocument(uri);
      return uri;
    }),
    vscode.commands.registerCommand(COMMANDS.send, (target?: SendTarget) => sendFrom(target, false, deps.sender)),
    vscode.commands.registerCommand(COMMANDS.sendAndFollowPages, (target?: SendTarget) => sendFrom(target, true, deps.sender)),
    vscode.commands.registerCommand(COMMANDS.selectEnvironment, (name?: unknown) => deps.credentials.selectEnvironment(name)),
    vscode.commands.registerCommand(COMMANDS.signIn, (arg?: string) => deps.credentials.signIn(arg)),
    vscode.commands.registerCommand(COMMANDS.signOut, (arg?: string) => deps.credentials.signOut(arg)),
    vscode.commands.registerCommand(COMMANDS.pasteBearerToken, (arg?: string) => deps.credentials.pasteBearerToken(arg)),
    vscode.commands.registerCommand(COMMANDS.setBasicCredentials, (arg?: string) => deps.credentials.setBasicCredentials(arg)),
    vscode.commands.registerCommand(COMMANDS.forgetAllCredentials, () => deps.credentials.forgetAll()),
    vscode.commands.registerCommand(COMMANDS.deleteScratch, async (node?: RequestsNode) => {
      if (node?.kind !== 'file' || !node.scratch) return;
      await deps.scratches.delete(node.uri);
    }),
  );
}

/** The operation of a tree node, an operation id, or one picked from the catalog. */
async function operationFrom(node: ServicesNode | string | undefined, catalog: Catalog): Promise<Operation | undefined> {
  if (typeof node === 'string') return catalog.operationById(node);
  if (node?.kind === 'operation') return node.operation;
  const pick = await vscode.window.showQuickPick(
    catalog.operations().filter((op) => op.path).map((op) => ({ label: `${op.family}/${op.name}`, description: `${op.method ?? ''} ${op.path ?? ''}`, op })),
    { title: 'New Request Scratch', placeHolder: 'Operation', matchOnDescription: true },
  );
  return pick?.op;
}

/** CodeLens passes {uri, requestIndex}; from the palette, the request under the cursor. */
function sendFrom(target: SendTarget | undefined, followPages: boolean, sender: SendController): Promise<unknown> {
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
