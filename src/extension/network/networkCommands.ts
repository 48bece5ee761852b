// The network commands: the proxy password and certificate passphrases go from an input box straight
// into SecretStorage (never a setting or a file); REST Client's rest-client.certificates become the
// active environment's per-host "SSLConfiguration", their passphrases moved into SecretStorage.
import { applyEdits, modify } from 'jsonc-parser';
import * as vscode from 'vscode';
import { certificatesFromRestClient } from '../../core/env/restClientCertificates';
import { PROXY_PASSWORD_KEY } from '../../core/http/networkSettings';
import { boundRecord } from '../../core/secrets/secretPlace';
import type { EnvironmentController } from '../environments/environmentController';

export interface RestClientImportReport {
  readonly hosts: readonly string[];
  readonly passphrases: number;
  readonly skipped: readonly string[];
}

export class NetworkCommands {
  constructor(private readonly environments: EnvironmentController) {}

  async setProxyPassword(given?: string): Promise<boolean> {
    // Kept with the proxy in use now, the one it is entered for: no other proxy gets it (networkSettings.ts).
    const { httpProxy, httpsProxy } = (await this.environments.network.resolve()).settings;
    const origins = [...new Set([httpProxy?.url, httpsProxy?.url].filter((url): url is string => url !== undefined))];
    const value = typeof given === 'string' ? given : await vscode.window.showInputBox({
      title: 'API Workbench: Proxy Password',
      prompt: `Password of the proxy user named in the proxy URL (http://USER@host:port), for ${origins.length ? origins.join(' and ') : 'the proxy of http.proxy or HTTPS_PROXY / HTTP_PROXY'} only; empty removes the stored one. Kept in SecretStorage only.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return false;
    if (value === '') await this.environments.allSecrets.delete(PROXY_PASSWORD_KEY);
    else await this.environments.allSecrets.set(PROXY_PASSWORD_KEY, origins.length ? boundRecord(value, origins) : value);
    this.environments.network.invalidate();
    return true;
  }

  /** `id`: a certificate id of the active environment (the tree's row gives it); otherwise picked. */
  async setCertificatePassphrase(id?: unknown, given?: string): Promise<boolean> {
    const withPassphrase = (this.environments.active?.network?.certificates ?? []).filter((c) => c.hasPassphrase);
    const named = typeof id === 'string' ? id : (id as { certificateId?: string } | undefined)?.certificateId;
    const chosen = withPassphrase.find((c) => c.id === named) ?? (withPassphrase.length === 1 ? withPassphrase[0] : await vscode.window.showQuickPick(
      withPassphrase.map((c) => ({ label: c.certificate?.path ?? c.id, description: c.hosts.join(', '), c })),
      { title: 'API Workbench: Certificate Passphrase', placeHolder: 'Client certificate of the active environment' },
    ).then((pick) => pick?.c));
    if (!chosen) {
      if (withPassphrase.length === 0) void vscode.window.showInformationMessage('API Workbench: no client certificate of the active environment says "hasCertificatePassphrase": true.');
      return false;
    }
    const value = given ?? await vscode.window.showInputBox({
      title: `API Workbench: Passphrase of ${chosen.certificate?.path ?? chosen.id}`,
      prompt: `For ${chosen.hosts.join(', ')}; kept in SecretStorage for this environment only.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (!value) return false;
    await this.environments.secrets.set(`${chosen.id}.passphrase`, value);
    this.environments.network.invalidate();
    return true;
  }

  /** REST Client's certificates into the active environment of the env file. */
  async importRestClientCertificates(): Promise<RestClientImportReport | undefined> {
    const environment = this.environments.active;
    const path = this.environments.envFilePath;
    if (!environment || !path) {
      void vscode.window.showWarningMessage('API Workbench: choose an environment of http-client.env.json first: the certificates go into it.');
      return undefined;
    }
    const imported = certificatesFromRestClient(vscode.workspace.getConfiguration('rest-client').get('certificates'));
    const hosts = Object.keys(imported.sslConfiguration);
    if (hosts.length === 0) {
      void vscode.window.showInformationMessage(`API Workbench: rest-client.certificates holds no certificate to import${imported.skipped.length ? ` (${imported.skipped.join('; ')})` : ''}.`);
      return { hosts, passphrases: 0, skipped: imported.skipped };
    }
    const uri = vscode.Uri.file(path);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const edits = modify(text, [environment.name, 'SSLConfiguration'], imported.sslConfiguration, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(applyEdits(text, edits)));
    for (const { key, value } of imported.passphrases) await this.environments.secrets.set(key, value);
    await this.environments.load();
    this.environments.network.invalidate();
    const moved = imported.passphrases.length ? ` ${imported.passphrases.length} passphrase(s) are now in SecretStorage: remove them from rest-client.certificates in your settings.` : '';
    const left = imported.skipped.length ? ` Left out: ${imported.skipped.join('; ')}.` : '';
    void vscode.window.showInformationMessage(`API Workbench: client certificates of ${hosts.join(', ')} imported into environment '${environment.name}'.${moved}${left}`);
    return { hosts, passphrases: imported.passphrases.length, skipped: imported.skipped };
  }
}
