// The credential commands: sign in/out (password grant), paste a bearer JWT, set Basic credentials,
// forget everything, switch environment. Secrets go from an input box straight into SecretStorage.
// An invalid_grant is shown in words and never retried: the stored password is dropped so the next
// sign-in asks again (accounts lock after repeated failures, seed 000 §5.3).
import { citationsAsText } from '../../core/reference';
import * as vscode from 'vscode';
import { AuthError, decodeJwt, describeJwt, describeTimeLeft, SignInError, type SessionInfo } from '../../core/auth';
import type { AuthEntry, AuthKind } from '../../core/env';
import { secretKey } from '../../core/secrets';
import type { EnvironmentController } from '../environments/environmentController';
import type { EnvironmentNode } from '../environments/environmentsTree';
import { faultText } from '../../core/text/faultText';

export type AuthArgument = string | EnvironmentNode | undefined;

export class CredentialCommands {
  constructor(private readonly environments: EnvironmentController) {}

  /** `name`: an environment's name, or the tree's environment row (an idle row is used as it is; the active one asks). */
  async selectEnvironment(name?: unknown): Promise<void> {
    const file = this.environments.envFile;
    if (!file) {
      void vscode.window.showWarningMessage('API Workbench: no http-client.env.json in this workspace.');
      return;
    }
    const row = name as EnvironmentNode | undefined;
    const given = typeof name === 'string' ? name : row?.kind === 'environment' && !row.active ? row.name : undefined;
    const chosen = given ?? await vscode.window.showQuickPick(
      file.names.map((n) => ({ label: n, description: n === this.environments.active?.name ? 'active' : undefined })),
      { title: 'API Workbench: Switch Environment', placeHolder: 'Environment of http-client.env.json' },
    ).then((pick) => pick?.label);
    if (chosen) await this.environments.use(chosen);
  }

  /** Returns the session, or undefined when the user cancelled or the sign-in failed (already reported). */
  async signIn(argument?: AuthArgument): Promise<SessionInfo | undefined> {
    // The place asked in, held: a password typed for it, and one refused, are kept or dropped there only.
    const { store: secrets, place } = this.environments.secrets.pinned();
    const entry = await this.pickEntry(argument, ['password-grant'], 'Sign in to');
    if (!entry) return undefined;
    const passwordKey = secretKey(entry.id, 'password');
    if (!(await secrets.get(passwordKey))) {
      const password = await vscode.window.showInputBox({
        title: `Sign in: ${entry.id}`,
        prompt: `Password of ${entry.username ?? 'the user'} at ${entry.tokenUrl ?? 'the token endpoint'}`,
        password: true,
        ignoreFocusOut: true,
      });
      if (!password) return undefined;
      await secrets.set(passwordKey, password);
    }
    if (this.environments.secrets.pinned().place !== place) {
      void vscode.window.showWarningMessage(`API Workbench: the env file or environment changed while signing in to ${entry.id}: nothing was sent; sign in again.`);
      return undefined;
    }
    // Started in the same turn as the check above: the sign-in's scope is the place asked in.
    const signingIn = this.environments.credentials.signIn(entry.id);
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Signing in to ${entry.id}…` }, () => signingIn.catch(() => undefined));
    try {
      const session = await signingIn;
      void vscode.window.showInformationMessage(`API Workbench: signed in to ${entry.id} as ${session.userName}; ${describeTimeLeft(session.expiresAt, Date.now())} (no refresh token: sign in again then).`);
      return session;
    } catch (error) {
      if (isInvalidGrant(error)) await secrets.delete(passwordKey);
      void vscode.window.showErrorMessage(`API Workbench: ${faultText(error)}`);
      return undefined;
    } finally {
      this.environments.notify();
    }
  }

  async signOut(argument?: AuthArgument): Promise<void> {
    const entry = await this.pickEntry(argument, ['password-grant'], 'Sign out of');
    if (!entry) return;
    await this.environments.credentials.signOut(entry.id);
    await this.environments.secrets.delete(secretKey(entry.id, 'password'));
    this.environments.notify();
    void vscode.window.showInformationMessage(`API Workbench: signed out of ${entry.id}; its token and password are removed.`);
  }

  async pasteBearerToken(argument?: AuthArgument): Promise<void> {
    const entry = await this.pickEntry(argument, ['jwt-bearer'], 'Paste a bearer token for');
    if (!entry) return;
    const token = await vscode.window.showInputBox({
      title: `Paste bearer token: ${entry.id}`,
      prompt: citationsAsText('A JWT issued by the platform identity service (seed 001 §5.2). It is kept in SecretStorage only.'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => {
        try { decodeJwt(value.trim().replace(/^Bearer\s+/i, '')); return undefined; } catch (error) { return error instanceof Error ? error.message : 'not a JWT'; }
      },
    });
    if (!token) return;
    const bare = token.trim().replace(/^Bearer\s+/i, '');
    await this.environments.secrets.set(secretKey(entry.id, 'token'), bare);
    this.environments.notify();
    void vscode.window.showInformationMessage(`API Workbench: token for ${entry.id} stored (${describeJwt(decodeJwt(bare), Date.now())}).`);
  }

  async setBasicCredentials(argument?: AuthArgument): Promise<void> {
    const entry = await this.pickEntry(argument, ['basic-api-key'], 'Set the service key of');
    if (!entry) return;
    const key = await vscode.window.showInputBox({
      title: `Basic credentials: ${entry.id}`,
      prompt: `Service key of permission '${entry.permissionName ?? '?'}' (tenant ${entry.tenantCode ?? '?'}). Kept in SecretStorage only.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (!key) return;
    await this.environments.secrets.set(secretKey(entry.id, 'service_key'), key);
    this.environments.notify();
    void vscode.window.showInformationMessage(`API Workbench: service key for ${entry.id} stored.`);
  }

  async forgetAll(): Promise<void> {
    const answer = await vscode.window.showWarningMessage(
      'Forget every password, service key and token API Workbench keeps?', { modal: true }, 'Forget All');
    if (answer !== 'Forget All') return;
    await this.environments.credentials.forgetAll();
    // Every environment's, not only the active one's.
    for (const key of await this.environments.allSecrets.keys()) await this.environments.allSecrets.delete(key);
    this.environments.notify();
  }

  private async pickEntry(argument: AuthArgument, kinds: readonly AuthKind[], verb: string): Promise<AuthEntry | undefined> {
    const env = this.environments.active;
    const entries = Object.values(env?.auth ?? {}).filter((e) => kinds.includes(e.kind));
    const wanted = typeof argument === 'string' ? argument : argument?.kind === 'auth' ? argument.entry.id : undefined;
    if (wanted !== undefined) {
      const found = entries.find((e) => e.id === wanted);
      if (!found) void vscode.window.showErrorMessage(`API Workbench: '${wanted}' is not a ${kinds.join('/')} auth entry of environment '${env?.name ?? '(none)'}'.`);
      return found;
    }
    if (entries.length === 0) {
      void vscode.window.showWarningMessage(`API Workbench: the active environment has no ${kinds.join('/')} auth entry.`);
      return undefined;
    }
    if (entries.length === 1) return entries[0];
    const pick = await vscode.window.showQuickPick(entries.map((e) => ({ label: e.id, entry: e })), { title: `${verb}…` });
    return pick?.entry;
  }
}

function isInvalidGrant(error: unknown): boolean {
  const cause = error instanceof AuthError ? error.underlying : error;
  return cause instanceof SignInError && cause.kind === 'invalid_grant';
}
