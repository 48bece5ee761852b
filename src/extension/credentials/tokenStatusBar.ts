// Status bar countdown of the active environment's password-grant tokens. There is no refresh token,
// so when one expires the item turns into an explicit "sign in" prompt; it never signs in by itself.
import * as vscode from 'vscode';
import { describeTimeLeft } from '../../core/auth';
import type { EnvironmentController } from '../environments/environmentController';
import { COMMANDS } from '../commandIds';

export class TokenStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('apiWorkbench.token', vscode.StatusBarAlignment.Left, 50);
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly environments: EnvironmentController, private readonly now: () => number = Date.now) {
    this.item.name = 'API Workbench sign-in';
    this.subscription = environments.onDidChange(() => void this.update());
    // A minute's resolution is what the countdown shows; no need to wake more often.
    this.timer = setInterval(() => void this.update(), 30_000);
  }

  async update(): Promise<void> {
    const env = this.environments.active;
    const grants = Object.values(env?.auth ?? {}).filter((e) => e.kind === 'password-grant');
    if (!env || grants.length === 0) {
      this.item.hide();
      return;
    }
    const parts: string[] = [];
    let needsSignIn = false;
    for (const entry of grants) {
      const state = await this.environments.credentials.state(entry.id);
      if (state.state === 'signed-in') parts.push(`${entry.id} ${describeTimeLeft(state.session.expiresAt, this.now())}`);
      else {
        needsSignIn = true;
        parts.push(`${entry.id} ${state.state === 'expired' ? 'expired' : 'signed out'}`);
      }
    }
    this.item.text = `$(${needsSignIn ? 'lock' : 'unlock'}) ${env.name}: ${parts.join(' · ')}`;
    this.item.tooltip = needsSignIn ? 'Sign in (there is no refresh token; sign-in is always explicit)' : 'Signed in; click to switch environment';
    this.item.command = needsSignIn ? COMMANDS.signIn : COMMANDS.selectEnvironment;
    this.item.show();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.subscription.dispose();
    this.item.dispose();
  }
}
