// The Environments view: the env file's environments (the active one marked) and, under the active one,
// each auth entry with its sign-in state; under every environment, its network (proxy, certificate
// authorities, client certificates and their state: network/networkRows.ts). Reads only what the
// controller already holds plus SecretStorage presence checks; it never shows a secret value.
import * as vscode from 'vscode';
import { describeJwt, decodeJwt, describeTimeLeft, type SignInState } from '../../core/auth';
import { environmentNamed, type AuthEntry, type Environment } from '../../core/env';
import { secretKey } from '../../core/secrets';
import type { EnvironmentController } from './environmentController';
import { withAccessibleName } from '../treeItems';
import { COMMANDS } from '../commandIds';
import { networkRows, type NetworkRow } from '../network/networkRows';

export type EnvironmentNode =
  | { readonly kind: 'environment'; readonly name: string; readonly active: boolean }
  | { readonly kind: 'auth'; readonly entry: AuthEntry }
  | { readonly kind: 'network'; readonly environment: string; readonly row: NetworkRow; readonly certificateId?: string }
  | { readonly kind: 'message'; readonly text: string; readonly detail?: string };

export class EnvironmentsTreeProvider implements vscode.TreeDataProvider<EnvironmentNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EnvironmentNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly controller: EnvironmentController, private readonly now: () => number = Date.now) {
    this.subscription = controller.onDidChange(() => this.changed.fire(undefined));
  }

  refresh(): void { this.changed.fire(undefined); }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  async getChildren(node?: EnvironmentNode): Promise<EnvironmentNode[]> {
    const file = this.controller.envFile;
    if (!node) {
      const nodes: EnvironmentNode[] = [];
      if (this.controller.error) nodes.push({ kind: 'message', text: 'The env file has a problem', detail: this.controller.error });
      if (!file) {
        nodes.push({ kind: 'message', text: 'No http-client.env.json in this workspace', detail: 'Create one to declare environments and their auth entries (no secrets in it).' });
        return nodes;
      }
      const active = this.controller.active?.name;
      return [...nodes, ...file.names.map((name): EnvironmentNode => ({ kind: 'environment', name, active: name === active }))];
    }
    if (node.kind === 'environment') {
      const env: Environment | undefined = file ? environmentNamed(file, node.name) : undefined;
      const auth = node.active ? Object.values(env?.auth ?? {}).map((entry): EnvironmentNode => ({ kind: 'auth', entry })) : [];
      const rows = networkRows(await this.controller.network.resolve(env), env);
      return [...auth, ...rows.map((row): EnvironmentNode => ({ kind: 'network', environment: node.name, row, ...(row.certificateId ? { certificateId: row.certificateId } : {}) }))];
    }
    return [];
  }

  async getTreeItem(node: EnvironmentNode): Promise<vscode.TreeItem> {
    return withAccessibleName(await this.treeItem(node));
  }

  private async treeItem(node: EnvironmentNode): Promise<vscode.TreeItem> {
    switch (node.kind) {
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.tooltip = node.detail;
        item.description = node.detail;
        item.iconPath = new vscode.ThemeIcon('info');
        return item;
      }
      case 'environment': {
        const item = new vscode.TreeItem(node.name, node.active ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `environment:${node.name}:${node.active ? 'active' : 'idle'}`;
        item.description = node.active ? 'active' : undefined;
        item.iconPath = new vscode.ThemeIcon(node.active ? 'pass-filled' : 'circle-large-outline');
        item.contextValue = node.active ? 'environmentActive' : 'environment';
        item.command = node.active ? undefined : { command: COMMANDS.selectEnvironment, title: 'Use this environment', arguments: [node.name] };
        return item;
      }
      case 'auth':
        return this.authItem(node.entry);
      case 'network': {
        const item = new vscode.TreeItem(node.row.label);
        item.id = `network:${node.environment}:${node.row.key}`;
        item.description = node.row.description;
        item.tooltip = node.row.tooltip;
        item.iconPath = new vscode.ThemeIcon(node.row.icon);
        item.contextValue = node.row.contextValue;
        return item;
      }
    }
  }

  private async authItem(entry: AuthEntry): Promise<vscode.TreeItem> {
    const item = new vscode.TreeItem(entry.id);
    item.id = `auth:${entry.id}`;
    const secrets = this.controller.secrets;
    switch (entry.kind) {
      case 'password-grant': {
        const state: SignInState = await this.controller.credentials.state(entry.id);
        item.contextValue = state.state === 'signed-in' ? 'authSignedIn' : 'authSignedOut';
        item.description = signInDescription(state, this.now());
        item.tooltip = `Password grant at ${entry.tokenUrl ?? '?'} as ${entry.username ?? '?'}. There is no refresh token: sign in again when the token expires.`;
        item.iconPath = new vscode.ThemeIcon(state.state === 'signed-in' ? 'unlock' : 'lock');
        break;
      }
      case 'basic-api-key': {
        const hasKey = (await secrets.get(secretKey(entry.id, 'service_key'))) !== undefined;
        item.contextValue = 'authBasic';
        item.description = `Basic + X-API-Key · ${entry.permissionName ?? '?'} @ ${entry.tenantCode ?? '?'} · ${hasKey ? 'service key stored' : 'no service key'}`;
        item.iconPath = new vscode.ThemeIcon(hasKey ? 'unlock' : 'lock');
        break;
      }
      case 'jwt-bearer': {
        const token = await secrets.get(secretKey(entry.id, 'token'));
        item.contextValue = 'authJwt';
        item.description = token ? jwtDescription(token, this.now()) : 'JWT bearer · no token pasted';
        item.iconPath = new vscode.ThemeIcon(token ? 'unlock' : 'lock');
        break;
      }
      default:
        item.description = entry.unsupportedReason ?? 'not supported';
        item.iconPath = new vscode.ThemeIcon('warning');
    }
    return item;
  }
}

export function signInDescription(state: SignInState, now: number): string {
  switch (state.state) {
    case 'signed-in': return `signed in as ${state.session.userName} · ${describeTimeLeft(state.session.expiresAt, now)}`;
    case 'expired': return `token expired · sign in again (${state.session.userName})`;
    case 'signed-out': return 'signed out';
    default: return '';
  }
}

function jwtDescription(token: string, now: number): string {
  try {
    return `JWT bearer · ${describeJwt(decodeJwt(token), now)}`;
  } catch (error) {
    return `JWT bearer · not a JWT (${error instanceof Error ? error.message : 'unreadable'})`;
  }
}
