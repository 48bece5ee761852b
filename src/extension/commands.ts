// Registers every command of COMMANDS (commandIds.ts). scripts/check-contributions.ts fails the build when
// package.json's contributes.commands, COMMANDS and the registerCommand calls here disagree.
import * as vscode from 'vscode';
import type { Catalog, Operation } from '../core/catalog';
import { COMMANDS } from './commandIds';
import type { CompareChoices } from './compare/compareController';
import type { AuthArgument } from './credentials/credentialCommands';
import { openContractReference } from './reference/contractReference';
import type { HistoryArgument } from './history/historyController';
import type { HistoryNode } from './history/historyTree';
import type { RequestsNode } from './requests/requestsTree';
import type { SendTarget } from './send/sendController';
import type { ServicesNode } from './servicesTree';
import type { Workbench } from './workbench';

/**
 * Commands load the workbench on first use; activation only registers them. This file is part of the
 * activation bundle (dist/extension.js): what a command needs beyond `vscode` comes from the workbench,
 * which `workbench` gives once its files (env file, catalog overlays) are read (afterFilesRead).
 */
export function registerCommands(context: vscode.ExtensionContext, workbench: () => Promise<Workbench>): void {
  const on = <A extends unknown[]>(run: (w: Workbench, ...args: A) => unknown) =>
    async (...args: A): Promise<unknown> => run(await workbench(), ...args);
  context.subscriptions.push(
    // Needs only the extension's own files: it does not load the workbench.
    vscode.commands.registerCommand(COMMANDS.openContractReference, (citation?: unknown) => openContractReference(context.extensionUri, citation)),
    vscode.commands.registerCommand(COMMANDS.refreshServices, on((w) => w.servicesTree.refresh())),
    vscode.commands.registerCommand(COMMANDS.refreshRequests, on((w) => w.requestsTree.refresh())),
    vscode.commands.registerCommand(COMMANDS.newScratch, on(async (w, node?: ServicesNode | string) => {
      const op = await operationFrom(node, w.catalogs.current);
      if (!op) return undefined;
      const uri = await w.scratches.create(op);
      // Pinned, not a preview tab: the next scratch must open beside this one, not replace it.
      await vscode.window.showTextDocument(uri, { preview: false });
      return uri;
    })),
    vscode.commands.registerCommand(COMMANDS.send, on((w, target?: SendTarget | RequestsNode) => w.sendFrom(target, false))),
    vscode.commands.registerCommand(COMMANDS.sendAndFollowPages, on((w, target?: SendTarget | RequestsNode) => w.sendFrom(target, true))),
    vscode.commands.registerCommand(COMMANDS.selectEnvironment, on((w, name?: unknown) => w.credentialCommands.selectEnvironment(name))),
    vscode.commands.registerCommand(COMMANDS.signIn, on((w, arg?: AuthArgument) => w.credentialCommands.signIn(arg))),
    vscode.commands.registerCommand(COMMANDS.signOut, on((w, arg?: AuthArgument) => w.credentialCommands.signOut(arg))),
    vscode.commands.registerCommand(COMMANDS.pasteBearerToken, on((w, arg?: AuthArgument) => w.credentialCommands.pasteBearerToken(arg))),
    vscode.commands.registerCommand(COMMANDS.setBasicCredentials, on((w, arg?: AuthArgument) => w.credentialCommands.setBasicCredentials(arg))),
    vscode.commands.registerCommand(COMMANDS.forgetAllCredentials, on((w) => w.credentialCommands.forgetAll())),
    vscode.commands.registerCommand(COMMANDS.saveToCollection, on((w, node?: RequestsNode, target?: vscode.Uri) => w.collectionCommands.saveToCollection(node, target instanceof vscode.Uri ? target : undefined))),
    vscode.commands.registerCommand(COMMANDS.renameRequest, on((w, node?: RequestsNode) => w.collectionCommands.renameRequest(node))),
    vscode.commands.registerCommand(COMMANDS.deleteRequest, on((w, node?: RequestsNode) => w.collectionCommands.deleteRequest(node))),
    vscode.commands.registerCommand(COMMANDS.moveRequest, on((w, node?: RequestsNode) => w.collectionCommands.moveRequest(node))),
    vscode.commands.registerCommand(COMMANDS.copyAsCurl, on((w, node?: RequestsNode) => w.collectionCommands.copyAsCurl(node))),
    vscode.commands.registerCommand(COMMANDS.generateCode, on((w, node?: RequestsNode, lang?: unknown) => w.generate.generateCode(node, typeof lang === 'string' ? lang : undefined))),
    vscode.commands.registerCommand(COMMANDS.generatePagingLoop, on((w, node?: RequestsNode, lang?: unknown) => w.generate.generatePagingLoop(node, typeof lang === 'string' ? lang : undefined))),
    vscode.commands.registerCommand(COMMANDS.importOpenApi, on((w, source?: string) => w.collectionCommands.importOpenApi(typeof source === 'string' ? source : undefined))),
    vscode.commands.registerCommand(COMMANDS.refreshOpenApi, on((w) => w.collectionCommands.refreshOpenApi())),
    vscode.commands.registerCommand(COMMANDS.importPostman, on((w, file?: vscode.Uri) => w.collectionCommands.importPostman(file instanceof vscode.Uri ? file : undefined))),
    vscode.commands.registerCommand(COMMANDS.exportPostman, on((w, node?: RequestsNode, target?: vscode.Uri) => w.collectionCommands.exportPostman(node, target instanceof vscode.Uri ? target : undefined))),
    vscode.commands.registerCommand(COMMANDS.openHistoryEntry, on((w, entry?: HistoryArgument) => w.history.open(entry))),
    vscode.commands.registerCommand(COMMANDS.rerunHistoryEntry, on((w, entry?: HistoryArgument) => w.history.rerun(entry))),
    vscode.commands.registerCommand(COMMANDS.copyHistoryAsCurl, on((w, entry?: HistoryArgument) => w.history.copyAsCurl(entry))),
    vscode.commands.registerCommand(COMMANDS.saveHistoryToCollection, on((w, entry?: HistoryArgument, target?: vscode.Uri) => w.history.saveToCollection(entry, target instanceof vscode.Uri ? target : undefined))),
    // From the view's context menu the second argument is the list of selected nodes: two selected compare with each other.
    vscode.commands.registerCommand(COMMANDS.compareHistoryEntries, on((w, first?: HistoryArgument, second?: HistoryArgument | HistoryArgument[]) => {
      if (Array.isArray(second)) return second.length === 2 ? w.history.compare(second[0], second[1]) : w.history.compare(first);
      return w.history.compare(first, second);
    })),
    vscode.commands.registerCommand(COMMANDS.compareWithCurrentResponse, on((w, entry?: HistoryArgument) => w.history.compareWithCurrent(entry))),
    vscode.commands.registerCommand(COMMANDS.clearHistory, on((w, confirmed?: unknown) => w.history.clear(confirmed === true))),
    vscode.commands.registerCommand(COMMANDS.refreshHistory, on((w) => w.history.tree.refresh())),
    vscode.commands.registerCommand(COMMANDS.importPrivateEnvFile, on((w, file?: unknown, options?: { deleteFile?: boolean }) =>
      w.importPrivateEnvFile({ ...(file instanceof vscode.Uri ? { file } : {}), ...(options?.deleteFile === true ? { deleteFile: true } : {}) }))),
    vscode.commands.registerCommand(COMMANDS.setProxyPassword, on((w, value?: unknown) => w.networkCommands.setProxyPassword(typeof value === 'string' ? value : undefined))),
    vscode.commands.registerCommand(COMMANDS.setCertificatePassphrase, on((w, id?: unknown, value?: unknown) => w.networkCommands.setCertificatePassphrase(id, typeof value === 'string' ? value : undefined))),
    vscode.commands.registerCommand(COMMANDS.importRestClientCertificates, on((w) => w.networkCommands.importRestClientCertificates())),
    vscode.commands.registerCommand(COMMANDS.importRestClientEnvironments, on((w, options?: { overwrite?: boolean }) =>
      w.importRestClientEnvironments(typeof options?.overwrite === 'boolean' ? { overwrite: options.overwrite } : {}))),
    // On a request (CodeLens target, Requests view node, the cursor) or on a History entry (the request it was sent from).
    vscode.commands.registerCommand(COMMANDS.compareEnvironments, on(async (w, target?: SendTarget | RequestsNode | HistoryNode, choices?: CompareChoices) => {
      if (target && typeof target === 'object' && 'kind' in target && target.kind === 'historyEntry') return w.compare.compareHistoryEntry(target.entry, choices);
      return w.compare.compareEnvironments(target, choices);
    })),
    vscode.commands.registerCommand(COMMANDS.compareStop, on((w) => w.compare.stop())),
    vscode.commands.registerCommand(COMMANDS.compareOpenPair, on((w, index?: unknown) => w.compare.openPair(index))),
    vscode.commands.registerCommand(COMMANDS.deleteScratch, on(async (w, node?: RequestsNode) => {
      if (node?.kind !== 'file' || !node.scratch) return;
      await w.scratches.delete(node.uri);
    })),
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
