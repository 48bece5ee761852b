// The credential prompts of a send and a walk. Nothing here signs in by itself except on the user's own
// act: a Send of a password-grant request without a valid token asks for the sign-in at once (pressing
// Send is that act); Basic and JWT entries offer their command; a 401 offers a sign-in once; a token that
// would expire during a walk asks, and the walk waits (Stop or a dismissal ends it, resumable).
import * as vscode from 'vscode';
import type { AuthEntry } from '../../core/env';
import type { Prepared } from '../../core/run/prepareRequest';
import type { Redactor } from '../../core/secrets';
import { COMMANDS } from '../commandIds';

/** The button offered beside a credential problem, per kind of entry, and the command it runs. */
const FIXES: Readonly<Record<string, { readonly action: string; readonly command: string }>> = {
  'password-grant': { action: 'Sign In', command: COMMANDS.signIn },
  'basic-api-key': { action: 'Set Basic Credentials', command: COMMANDS.setBasicCredentials },
  'jwt-bearer': { action: 'Paste Bearer Token', command: COMMANDS.pasteBearerToken },
};

/**
 * Says why a request could not be prepared, with the command that fixes it. `then`: the send to make
 * once the credential is there (a cancelled prompt sends nothing).
 */
export async function reportUnprepared(
  redactor: Redactor, auth: Readonly<Record<string, AuthEntry>> | undefined, prepared: Extract<Prepared, { ok: false }>, then?: () => Promise<unknown>,
): Promise<void> {
  const problem = redactor.text(prepared.problem);
  const authId = prepared.kind === 'auth' ? prepared.authId : undefined;
  if (!authId) {
    void vscode.window.showErrorMessage(`API Workbench: ${problem}`);
    return;
  }
  const kind = auth?.[authId]?.kind;
  if (kind === 'password-grant' && then) {
    const session: unknown = await vscode.commands.executeCommand('apiWorkbench.signIn', authId);
    if (session) await then();
    return;
  }
  const fix = kind === undefined ? undefined : FIXES[kind];
  const choice = await vscode.window.showErrorMessage(`API Workbench: ${problem}`, ...(fix ? [fix.action] : []));
  if (!fix || choice !== fix.action) return;
  const { command } = fix;
  const done: unknown = await vscode.commands.executeCommand(command, authId);
  // Sign In answers with the session; the other two store a secret and answer nothing: then the send is tried.
  if (then && (command !== COMMANDS.signIn || done)) await then();
}

/** A 401 offers an explicit sign-in once; it never signs in or re-sends by itself. */
export async function offerSignIn(scheme: string): Promise<void> {
  if (scheme !== 'password-grant') return;
  const choice = await vscode.window.showWarningMessage('API Workbench: 401 — the engagement service did not accept the credentials sent. Sign in again?', 'Sign In');
  if (choice === 'Sign In') await vscode.commands.executeCommand(COMMANDS.signIn);
}

/**
 * A token would expire during a walk: the user is asked to sign in again and the walk waits (its
 * progress says so), then goes on from the same page. Never signs in by itself; Stop or a dismissal
 * ends the walk, resumable.
 */
export async function signInAgain(authId: string, why: string, signal?: AbortSignal): Promise<boolean> {
  const stopped = new Promise<undefined>((resolve) => signal?.addEventListener('abort', () => resolve(undefined), { once: true }));
  const choice = await Promise.race([vscode.window.showWarningMessage(`API Workbench: ${why}. Sign in again to go on with the walk from the same page.`, 'Sign In'), stopped]);
  if (choice !== 'Sign In' || signal?.aborted) return false;
  const session = await Promise.race([vscode.commands.executeCommand<unknown>('apiWorkbench.signIn', authId), stopped]);
  return session !== undefined && !signal?.aborted;
}
