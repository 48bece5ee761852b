// "Import JetBrains Private Env File": moves the values of http-client.private.env.json into SecretStorage,
// scoped to this workspace's env file and their environment, bound to its hosts (ScopedSecretStore), says what moved and what was left behind (names
// and places only, never a value), and offers to delete the file. The plan is the core's (core/env/privateEnv).
import * as vscode from 'vscode';
import { ENV_FILE_NAME } from '../../core/env/loadEnvFile';
import { PRIVATE_ENV_FILE_NAME, planPrivateEnvImport, type LeftBehind } from '../../core/env/privateEnv';
import type { EnvironmentController } from '../environments/environmentController';
import { scopedSecretKey } from './scopedSecretStore';
import { faultText } from '../../core/text/faultText';

export interface PrivateEnvImportReport {
  readonly file: string;
  /** `<environment>/<authId>.<field>` ← where it was in the file. No value. */
  readonly moved: readonly { readonly secret: string; readonly from: string }[];
  readonly leftBehind: readonly LeftBehind[];
  readonly deleted: boolean;
}

export interface PrivateEnvImportOptions {
  /** The file (default: the first http-client.private.env.json of the workspace). */
  readonly file?: vscode.Uri;
  /** Delete the file afterwards without asking (tests; the palette always asks). */
  readonly deleteFile?: boolean;
}

export async function importPrivateEnvFile(environments: EnvironmentController, options: PrivateEnvImportOptions = {}): Promise<PrivateEnvImportReport | undefined> {
  const file = options.file ?? (await vscode.workspace.findFiles(`**/${PRIVATE_ENV_FILE_NAME}`, '**/node_modules/**', 1))[0];
  if (!file) {
    void vscode.window.showInformationMessage(`API Workbench: no ${PRIVATE_ENV_FILE_NAME} in this workspace.`);
    return undefined;
  }
  const shown = vscode.workspace.asRelativePath(file);
  let plan;
  try {
    const privateText = await readText(file);
    const sharedText = await readText(vscode.Uri.joinPath(file, '..', ENV_FILE_NAME)).catch(() => undefined);
    plan = planPrivateEnvImport(privateText, sharedText);
  } catch (error) {
    void vscode.window.showErrorMessage(`API Workbench: ${faultText(error)}`);
    return undefined;
  }
  // Kept for this workspace's env file and the hosts its environment names (never the first versions' keys).
  for (const move of plan.moves) await environments.secrets.setAt(environments.scopeOf(move.environment), move.key, move.value);
  environments.notify();
  const moved = plan.moves.map((m) => ({ secret: scopedSecretKey(m.environment, m.key), from: m.from }));

  const summary = moved.length
    ? `moved ${moved.length} value(s) of ${shown} into the secret store: ${moved.map((m) => `${m.secret} (from ${m.from})`).join(', ')}.`
    : `nothing in ${shown} could be moved.`;
  const behind = plan.leftBehind.length
    ? ` Left in the file: ${plan.leftBehind.map((l) => `${l.from} — ${l.reason}`).join('; ')}.`
    : '';
  let deleted = false;
  if (options.deleteFile) {
    deleted = await remove(file);
  } else if (moved.length > 0) {
    const del = 'Delete the File';
    const choice = await vscode.window.showInformationMessage(
      `API Workbench: ${summary}${behind}`,
      { modal: plan.leftBehind.length > 0, detail: plan.leftBehind.length ? 'Deleting the file also deletes what was left in it.' : undefined },
      del,
    );
    if (choice === del) deleted = await remove(file);
  } else {
    void vscode.window.showWarningMessage(`API Workbench: ${summary}${behind}`);
  }
  return { file: shown, moved, leftBehind: plan.leftBehind, deleted };
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

async function remove(file: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.delete(file, { useTrash: false });
    return true;
  } catch (error) {
    void vscode.window.showErrorMessage(`API Workbench: could not delete ${vscode.workspace.asRelativePath(file)}: ${faultText(error)}`);
    return false;
  }
}
