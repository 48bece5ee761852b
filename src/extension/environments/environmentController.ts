// Finds the workspace's http-client.env.json, keeps it loaded (watching for edits), remembers the active
// environment per workspace, and owns the CredentialService for it. A broken env file is reported with
// its file/line message and the last good one stays in use: nothing the user had is lost.
import * as vscode from 'vscode';
import { CredentialService } from '../../core/auth';
import { ENV_FILE_NAME, EnvironmentSession, environmentNamed, parseEnvFile, selectEnvironment, type EnvFile, type Environment } from '../../core/env';
import { trusted } from '../workspaceTrust';
import type { HttpPort } from '../../core/http/client';
import type { HttpRequest, HttpResponse } from '../../core/http/types';
import { responseTimeoutMs } from '../settings';
import type { SecretStore } from '../../core/secrets';
import { SecretBindings } from '../../core/secrets/bindings';
import type { SecretPlace } from '../../core/secrets/secretPlace';
import { heldSecrets, ScopedSecretStore, type AdoptQuestion, type SecretScope } from '../credentials/scopedSecretStore';
import { EditorNetwork } from '../network/editorNetwork';
import { secretVariableKey } from '../../core/env/restClientEnvironments';
import { faultText } from '../../core/text/faultText';

const ACTIVE_KEY = 'apiWorkbench.activeEnvironment';
/** The field of a secret variable's key (`token.variable`: core/env/restClientEnvironments.ts, secretVariableKey). */
const SECRET_VARIABLE_SUFFIX = secretVariableKey('');
const EMPTY_ENVIRONMENT: Environment = { name: '(none)', variables: {}, auth: {} };

export class EnvironmentController implements vscode.Disposable {
  private file: EnvFile | undefined;
  private fileUri: vscode.Uri | undefined;
  /** Proxy, certificate authorities and client certificates: every request of the editor goes through `network.http`. */
  readonly network: EditorNetwork;
  private session: EnvironmentSession | undefined;
  private loadError: string | undefined;
  readonly credentials: CredentialService;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  /** The active environment's secrets, of this workspace folder and env file (`engagement.password` means its). */
  readonly secrets: ScopedSecretStore;
  /** The env file in use (the first of the workspace, or the one given to useEnvFile). */
  private pinned: vscode.Uri | undefined;
  /**
   * Every secret the editor holds and where each may go: the send boundary's guard for every send,
   * page, redirect and sign-in (refreshGuard binds what SecretStorage holds before each).
   */
  readonly guard = new SecretBindings();
  /**
   * Asked before a secret kept elsewhere (another workspace or env file, an earlier version, other hosts)
   * is sent from here; the question names both hosts. A modal warning; tests may answer it themselves.
   */
  confirmAdopt: (question: AdoptQuestion) => Promise<boolean> = async (question) =>
    (await vscode.window.showWarningMessage(`API Workbench: ${question.message}`, { modal: true }, question.accept)) === question.accept;

  /** `allSecrets`: every place's secrets (for redaction of known values, the send boundary and "forget all"). */
  constructor(private readonly state: vscode.Memento, readonly allSecrets: SecretStore) {
    const secrets = new ScopedSecretStore(allSecrets, () => this.scope(), (question) => this.confirmAdopt(question));
    this.secrets = secrets;
    this.network = new EditorNetwork(this);
    this.credentials = new CredentialService(EMPTY_ENVIRONMENT, {
      secrets,
      bindings: this.guard,
      send: (request) => this.signInSend(request),
      signInOnDemand: false,
      missingSecretHint: (authId, field) => `run "API Workbench: ${field === 'password' ? 'Sign In' : field === 'service_key' ? 'Set Basic Credentials' : 'Paste Bearer Token'}" for '${authId}'`,
    });
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${ENV_FILE_NAME}`);
    this.disposables.push(this.network, this.network.onDidChange(() => this.changed.fire()), watcher, watcher.onDidChange(() => void this.load()), watcher.onDidCreate(() => void this.load()), watcher.onDidDelete(() => void this.load()));
  }

  get envFile(): EnvFile | undefined { return this.file; }
  get envFilePath(): string | undefined { return this.fileUri?.fsPath; }
  get error(): string | undefined { return this.loadError; }
  get active(): Environment | undefined { return this.session?.active; }

  /** Where secrets are entered now: the env file's workspace folder, its path there, the active environment. */
  scope(): SecretScope {
    const environment = this.active ?? EMPTY_ENVIRONMENT;
    return { place: this.placeOf(environment.name), environment };
  }

  /** The scope of an environment of the env file in use, active or not. */
  scopeOf(name: string): SecretScope {
    const environment = (this.file && environmentNamed(this.file, name)) ?? { ...EMPTY_ENVIRONMENT, name };
    return { place: this.placeOf(name), environment };
  }

  /** The place of an environment of the env file in use. */
  placeOf(environment: string): SecretPlace {
    const uri = this.fileUri;
    const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    const envFile = uri ? (folder ? vscode.workspace.asRelativePath(uri, false) : uri.toString()) : '';
    return { folder: folder?.uri.toString() ?? '', envFile, environment };
  }

  /** The guard with every secret SecretStorage holds bound to its origins (added to those bound this session). */
  /**
   * The editor's one HTTP port: its network (proxy, CAs, client certificates), and nothing at all in
   * Restricted Mode (workspaceTrust.ts). Every send, walk, re-run, comparison and sign-in goes through it.
   */
  get http(): HttpPort {
    return trusted(this.network.http);
  }

  /** A sign-in's request, through `http`, every secret held checked against where it may go. */
  async signInSend(request: HttpRequest): Promise<HttpResponse> {
    return this.http.send(request, { timeoutMs: responseTimeoutMs(), guard: await this.refreshGuard() });
  }

  async refreshGuard(): Promise<SecretBindings> {
    for (const held of await heldSecrets(this.allSecrets)) this.guard.bind(held.value, held.origins, held.what);
    return this.guard;
  }

  /** Uses this env file from now on (a workspace may hold several); undefined: the first found again. */
  useEnvFile(uri: vscode.Uri | undefined): Promise<void> {
    this.pinned = uri;
    return this.load();
  }

  /** The active environment's secret variables (Import REST Client Environments), as SecretStorage hands them out here. */
  private secretVariables: Readonly<Record<string, string>> = {};

  /**
   * The active environment with its secret variables (`<name>.variable` in SecretStorage, handed out only
   * while the env file still sends them where they were bound) over the env file's: what a send resolves
   * `{{name}}` against. Redaction and the send boundary know them as every secret held.
   */
  get sendEnvironment(): Environment | undefined {
    const active = this.active;
    if (!active || Object.keys(this.secretVariables).length === 0) return active;
    return { ...active, variables: { ...active.variables, ...this.secretVariables } };
  }

  /** Reads the active environment's secret variables again (after a load, a switch or an import). */
  async refreshSecretVariables(): Promise<void> {
    const found: Record<string, string> = {};
    if (this.active) {
      for (const key of await this.secrets.keys()) {
        if (!key.endsWith(SECRET_VARIABLE_SUFFIX)) continue;
        const value = await this.secrets.get(key);
        if (value !== undefined) found[key.slice(0, -SECRET_VARIABLE_SUFFIX.length)] = value;
      }
    }
    this.secretVariables = found;
  }

  /** Variable names of the active environment, its secret variables' too (for completion; never values). */
  variableNames(): string[] {
    return Object.keys(this.sendEnvironment?.variables ?? {});
  }

  private loads: Promise<void> = Promise.resolve();

  /** Reads the env file again; loads run one after another, so an older read never wins. */
  load(): Promise<void> {
    this.loads = this.loads.then(() => this.loadOnce(), () => this.loadOnce());
    return this.loads;
  }

  private async loadOnce(): Promise<void> {
    const [uri] = this.pinned ? [this.pinned] : await vscode.workspace.findFiles(`**/${ENV_FILE_NAME}`, '**/node_modules/**', 1);
    if (!uri) {
      this.fileUri = undefined;
      this.file = undefined;
      this.fileUri = undefined;
      this.session = undefined;
      this.loadError = undefined;
      this.credentials.useEnvironment(EMPTY_ENVIRONMENT);
      this.changed.fire();
      return;
    }
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const file = parseEnvFile(text, vscode.workspace.asRelativePath(uri));
      this.file = file;
      this.fileUri = uri;
      this.loadError = undefined;
      const remembered = this.state.get<string>(ACTIVE_KEY);
      const initial = remembered && environmentNamed(file, remembered) ? remembered : file.names[0];
      this.session = new EnvironmentSession(file, initial);
      this.credentials.useEnvironment(this.session.active ?? EMPTY_ENVIRONMENT);
      await this.refreshSecretVariables();
    } catch (error) {
      // Keep the last good file in use; say what is wrong with the new one.
      this.loadError = faultText(error);
      void vscode.window.showErrorMessage(`API Workbench: ${this.loadError}`);
    }
    this.changed.fire();
  }

  async use(name: string): Promise<void> {
    if (!this.session || !this.file) throw new Error(`No ${ENV_FILE_NAME} in this workspace: create one to declare environments.`);
    selectEnvironment(this.file, name);
    // Remembered first: a reload of the env file (its watcher, after an edit) that reads the remembered
    // name from now on keeps this one, and one that read it before is overridden just below.
    await this.state.update(ACTIVE_KEY, name);
    const env = this.session.use(name);
    this.credentials.useEnvironment(env);
    await this.refreshSecretVariables();
    this.changed.fire();
  }

  /** Something outside (sign-in, sign-out) changed what the tree shows. */
  notify(): void {
    this.changed.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
