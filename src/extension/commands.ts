// Registers every command of COMMANDS (commandIds.ts). scripts/check-contributions.ts fails the build when
// package.json's contributes.commands, COMMANDS and the registerCommand calls here disagree.
import * as vscode from 'vscode';
import { COMMANDS } from './commandIds';
import type { ServicesTreeProvider } from './servicesTree';

export interface CommandDeps {
  readonly servicesTree: ServicesTreeProvider;
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.refreshServices, () => deps.servicesTree.refresh()),
  );
}
