// The editor's network: VS Code's http.proxy, http.noProxy, http.proxyStrictSSL, http.proxySupport and
// http.systemCertificates, the extension host's proxy variables, and the environment's own "Proxy",
// "CA Bundle" and "SSLConfiguration" (src/core/http/networkSettings.ts decides). Every send, sign-in,
// walk and history re-run of the editor goes through `http`. The proxy password lives in SecretStorage
// (`proxy.password`, for every environment); a certificate passphrase in the environment's scope.
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import * as tls from 'node:tls';
import * as vscode from 'vscode';
import type { Environment } from '../../core/env';
import { httpClient, type HttpPort } from '../../core/http/client';
import { Network, networkPort } from '../../core/http/network';
import { PROXY_PASSWORD_KEY, resolveNetwork, type EditorNetworkSettings, type ResolvedNetwork } from '../../core/http/networkSettings';
import type { SecretStore } from '../../core/secrets';
import { ScopedSecretStore, type SecretScope } from '../credentials/scopedSecretStore';

/** What the network needs of the environment controller (no import cycle). */
export interface NetworkHost {
  readonly active: Environment | undefined;
  /** The env file's path on disk (its folder resolves the paths it names). */
  readonly envFilePath: string | undefined;
  readonly allSecrets: SecretStore;
  /** Where an environment's secrets are kept (workspace folder, env file, environment). */
  scopeOf(name: string): SecretScope;
}

/** VS Code's http.* settings as plain data. */
export function editorNetworkSettings(): EditorNetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<string>('proxy');
  const noProxy = http.get<string[]>('noProxy');
  const support = http.get<string>('proxySupport');
  return {
    ...(proxy ? { proxy } : {}),
    ...(Array.isArray(noProxy) && noProxy.length ? { noProxy } : {}),
    proxyStrictSSL: http.get<boolean>('proxyStrictSSL', true),
    ...(support ? { proxySupport: support } : {}),
    systemCertificates: http.get<boolean>('systemCertificates', true),
  };
}

/** The operating system's authorities, where this editor's Node reads them (22.15 and later). */
function systemAuthorities(): readonly string[] | undefined {
  const read = (tls as { getCACertificates?: (which: string) => string[] }).getCACertificates;
  try {
    return read?.('system');
  } catch {
    return undefined;
  }
}

export class EditorNetwork implements vscode.Disposable {
  readonly http: HttpPort;
  private cached: { key: string; network: Promise<Network> } | undefined;
  private readonly said = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(private readonly host: NetworkHost) {
    this.http = networkPort(httpClient, () => this.current(), (text) => void vscode.window.showWarningMessage(`API Workbench: ${text}`));
    this.disposables.push(vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('http')) this.invalidate();
    }));
  }

  /** Settings, environment or a stored secret changed: the next request builds the network again. */
  invalidate(): void {
    const old = this.cached;
    this.cached = undefined;
    void old?.network.then((n) => n.close());
    this.changed.fire();
  }

  /** The network settings of an environment (the active one by default), with their states in words. */
  resolve(environment: Environment | undefined = this.host.active): Promise<ResolvedNetwork> {
    const envPath = this.host.envFilePath;
    const folder = envPath ? dirname(envPath) : process.cwd();
    const scoped = environment ? new ScopedSecretStore(this.host.allSecrets, () => this.host.scopeOf(environment.name)) : undefined;
    return resolveNetwork({
      env: process.env,
      editor: editorNetworkSettings(),
      ...(environment ? { environment } : {}),
      resolve: (path) => resolvePath(folder, path),
      readFile: (path) => readFileSync(path),
      now: Date.now(),
      secret: (key) => (key === PROXY_PASSWORD_KEY ? this.host.allSecrets.get(key) : scoped?.get(key) ?? Promise.resolve(undefined)),
      systemAuthorities,
    });
  }

  private current(): Promise<Network> {
    const environment = this.host.active;
    const key = `${this.host.envFilePath ?? ''}\n${environment?.name ?? ''}\n${JSON.stringify(environment?.network ?? null)}`;
    if (this.cached?.key !== key) {
      const old = this.cached;
      void old?.network.then((n) => n.close());
      const network = this.resolve(environment).then((resolved) => {
        for (const problem of resolved.problems) this.sayOnce(problem);
        for (const state of resolved.certificates) {
          if (state.condition !== 'ready') this.sayOnce(`The client certificate ${state.file} for ${state.hosts.join(', ')}: ${state.words}.`);
        }
        return new Network(resolved.settings);
      });
      this.cached = { key, network };
    }
    return this.cached.network;
  }

  private sayOnce(text: string): void {
    if (this.said.has(text)) return;
    this.said.add(text);
    void vscode.window.showWarningMessage(`API Workbench: ${text}`);
  }

  dispose(): void {
    void this.cached?.network.then((n) => n.close());
    for (const d of this.disposables) d.dispose();
  }
}
