// Shared moves of the extension-host suites: request files in the test workspace, the sandbox's request
// log, sign-in, and waiting on an editor event with a bounded timeout (never a sleep).
import * as vscode from 'vscode';
import type { SandboxDescriptor } from '../../../src/sandbox/descriptor';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';

/**
 * Writes a `.http` file into `editor-suite/` of the test workspace and returns its URI. A folder of their
 * own keeps the workspace root (which the UI tests read in the Explorer) as the sample has it.
 */
export async function writeWorkspaceFile(name: string, text: string): Promise<vscode.Uri> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error('the editor has no workspace folder open');
  const folder = vscode.Uri.joinPath(root, 'editor-suite');
  await vscode.workspace.fs.createDirectory(folder);
  const uri = vscode.Uri.joinPath(folder, name);
  // A name may hold a folder of its own (a collection folder).
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

/** One request the sandbox received, as its /__sandbox/requests log shows it (secrets already redacted). */
export interface LoggedRequest {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[]>;
  readonly form?: Record<string, string>;
  readonly status?: number;
}

/** The sandbox origin's request log (the token endpoint shares the engagement origin). */
export async function requestLog(baseUrl: string): Promise<LoggedRequest[]> {
  const response = await fetch(new URL('/__sandbox/requests', baseUrl));
  if (!response.ok) throw new Error(`GET /__sandbox/requests answered ${response.status}`);
  return (await response.json()) as LoggedRequest[];
}

export async function clearRequestLog(baseUrl: string): Promise<void> {
  const response = await fetch(new URL('/__sandbox/requests', baseUrl), { method: 'DELETE' });
  if (!response.ok) throw new Error(`DELETE /__sandbox/requests answered ${response.status}`);
}

export function tokenRequests(log: readonly LoggedRequest[], sandbox: SandboxDescriptor): LoggedRequest[] {
  const tokenPath = new URL(`${sandbox.engagement.authUrl}/token`).pathname;
  return log.filter((r) => r.method === 'POST' && r.path === tokenPath);
}

/** Makes "sandbox" the active environment (the runner wrote it into the workspace's env file). */
export async function useSandboxEnvironment(api: ApiWorkbenchTestApi): Promise<void> {
  if (!api.environments.envFile) await api.environments.load();
  if (api.environments.active?.name !== 'sandbox') await api.environments.use('sandbox');
}

/** Signs in to 'engagement' through the command, with the sandbox password stored first (so no input box). */
export async function signInToEngagement(api: ApiWorkbenchTestApi, sandbox: SandboxDescriptor): Promise<void> {
  await useSandboxEnvironment(api);
  if ((await api.environments.credentials.state('engagement')).state === 'signed-in') return;
  await api.environments.secrets.set('engagement.password', sandbox.credentials.engagement.password);
  const session = await vscode.commands.executeCommand('apiWorkbench.signIn', 'engagement');
  if (!session) throw new Error('signing in to the sandbox engagement service failed (see the editor notifications)');
}

/**
 * Resolves once `check()` holds, re-checking whenever `event` fires; rejects after `timeoutMs` with `what`.
 * For editor state that has an event (diagnostics, tree changes): no polling, no sleep.
 */
export function whenTrue<T>(event: vscode.Event<unknown>, check: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const now = check();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => { listener.dispose(); reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)); }, timeoutMs);
    const listener = event(() => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(value);
    });
  });
}

/** Replaces the first occurrence of `search` in the document (an edit the language server is told of). */
export async function replaceInDocument(document: vscode.TextDocument, search: string, replacement: string): Promise<void> {
  const offset = document.getText().indexOf(search);
  if (offset < 0) throw new Error(`"${search}" is not in ${document.uri.path}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(offset), document.positionAt(offset + search.length)), replacement);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the edit of ${document.uri.path} was refused`);
}

/** The position just after the first occurrence of `marker` in the document. */
export function positionAfter(document: vscode.TextDocument, marker: string): vscode.Position {
  const offset = document.getText().indexOf(marker);
  if (offset < 0) throw new Error(`"${marker}" is not in ${document.uri.path}`);
  return document.positionAt(offset + marker.length);
}

/**
 * Presses the panel's Export (as the webview does) on the response it shows, and gives the one file that
 * press wrote under `apiwb-results/` of the workspace, read as text.
 */
export async function exportShownResponse(api: ApiWorkbenchTestApi, format: 'ndjson' | 'csv'): Promise<string> {
  const vm = api.results.viewModel;
  if (!vm) throw new Error('the panel shows no response');
  const folder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file('/'), 'apiwb-results');
  const listed = async (): Promise<string[]> => {
    try {
      return (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
    } catch {
      return [];
    }
  };
  const before = new Set(await listed());
  await api.sender.handlePanelRequest({ type: 'export', format, responseId: vm.id, requestKey: vm.requestKey });
  const written = (await listed()).filter((name) => !before.has(name));
  if (written.length !== 1) throw new Error(`Export wrote ${written.length} files: ${written.join(', ')}`);
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, written[0]!)));
}
