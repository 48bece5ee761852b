// Restricted Mode (VS Code's Workspace Trust): a repository's env file and requests decide which hosts
// get a request and its credentials, and which files a `< file` body reads. Until the user trusts the
// workspace, API Workbench browses, completes and diagnoses, but sends nothing, signs in nowhere and reads
// no body file (package.json: capabilities.untrustedWorkspaces, "limited"). Enforced here, at the HTTP port
// every send, page and sign-in of the editor goes through, and at the `< file` reader; and a `< file`
// outside the workspace folders is read only once the user says so.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import * as vscode from 'vscode';
import type { HttpPort } from '../core/http/client';
import { HttpFault } from '../core/http/types';
import { decodeBodyFile } from '../core/text/bodyFile';

const RESTRICTED_WORDS = 'this workspace is in Restricted Mode: API Workbench sends no request, signs in nowhere and reads no `< file` body until you trust it (Manage Workspace Trust)';

/** Throws (an HttpFault, so that every surface shows the words) when the workspace is not trusted. */
function requireTrust(request: { method: string; url: string }): void {
  if (vscode.workspace.isTrusted) return;
  const target = { method: request.method.toUpperCase(), url: request.url };
  throw new HttpFault('invalid-request', `${target.method} ${target.url}: not sent: ${RESTRICTED_WORDS}.`, target);
}

/** An HTTP port of the editor (the network's: proxy, CAs, certificates), only in a trusted workspace. */
export function trusted(http: HttpPort): HttpPort {
  return {
    send: (request, options) => {
      requireTrust(request);
      return http.send(request, options);
    },
    stream: (request, options) => {
      requireTrust(request);
      return http.stream(request, options);
    },
  };
}

/**
 * The process environment for {{$processEnv X}} and {{$env.X}} (their values are secrets): only in a
 * trusted workspace; in Restricted Mode the words of the refusal, and nothing is read.
 */
export function processEnvironment(): Readonly<Record<string, string | undefined>> | { readonly refused: string } {
  return vscode.workspace.isTrusted ? process.env : { refused: `not read: ${RESTRICTED_WORDS}; nor a value of the process environment` };
}

/**
 * Reads a request's `< file` body: not in Restricted Mode; a file outside every workspace folder (`<
 * ../../../../etc/passwd`) only once the user has said yes to that file, asked each time.
 */
export async function readIncludedBody(requestFile: vscode.Uri, path: string, encoding?: string, strict?: boolean): Promise<string> {
  if (!vscode.workspace.isTrusted) throw new Error(`< ${path}: not read: ${RESTRICTED_WORDS}`);
  const target = vscode.Uri.joinPath(requestFile, '..', path);
  if (!insideWorkspace(target)) {
    const read = 'Read It Once';
    const choice = await vscode.window.showWarningMessage(
      `API Workbench: the request's body is read from ${target.fsPath}, outside the workspace folder. Its content would be sent to the request's server. Read it?`,
      { modal: true }, read);
    if (choice !== read) throw new Error(`< ${path}: not read: ${target.fsPath} is outside the workspace folder and reading it was not allowed`);
  }
  return decodeBodyFile(await vscode.workspace.fs.readFile(target), encoding, strict);
}

/** The file (its real path: a link inside the folder may point out of it) lies in a workspace folder. */
function insideWorkspace(target: vscode.Uri): boolean {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const file = real(target.fsPath);
  return (vscode.workspace.workspaceFolders ?? []).some((folder) => {
    const rel = relative(real(folder.uri.fsPath), file);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  });
}
