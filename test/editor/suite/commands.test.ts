// package.json's contributed commands and the commands registered at run time agree, both ways.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activatedApi, extensionUnderTest, type PackageJson } from './extensionUnderTest';

const PREFIX = 'apiWorkbench.';
// Commands the workbench itself creates for every contributed view (`<viewId>.focus`, ...).
const VIEW_COMMAND_SUFFIXES = ['focus', 'resetViewLocation', 'toggleVisibility', 'removeView', 'open'];

function contributedCommands(): string[] {
  return ((extensionUnderTest().packageJSON as PackageJson).contributes.commands ?? []).map((c) => c.command).sort();
}

function viewIds(): string[] {
  return Object.values((extensionUnderTest().packageJSON as PackageJson).contributes.views ?? {}).flat().map((v) => v.id);
}

async function registeredCommands(): Promise<string[]> {
  await activatedApi();
  const views = viewIds();
  const generatedByWorkbench = (id: string): boolean =>
    views.some((view) => VIEW_COMMAND_SUFFIXES.some((suffix) => id === `${view}.${suffix}`));
  return (await vscode.commands.getCommands(true)).filter((id) => id.startsWith(PREFIX) && !generatedByWorkbench(id)).sort();
}

describe('commands', () => {
  it('registers every command contributed in package.json', async () => {
    const registered = new Set(await registeredCommands());
    const missing = contributedCommands().filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it(`contributes every ${PREFIX}* command it registers`, async () => {
    const contributed = new Set(contributedCommands());
    const extra = (await registeredCommands()).filter((id) => !contributed.has(id));
    assert.deepEqual(extra, [], `registered but not contributed: ${extra.join(', ')}`);
  });

  it('refreshes the services tree on apiWorkbench.refreshServices', async () => {
    const { servicesTree } = await activatedApi();
    const fired = new Promise<void>((resolve) => {
      const listener = servicesTree.onDidChangeTreeData(() => { listener.dispose(); resolve(); });
    });
    await vscode.commands.executeCommand('apiWorkbench.refreshServices');
    await fired;
  });
});
