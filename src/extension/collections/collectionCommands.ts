// Collections (folders of .http files in the workspace, reviewable in git) and interop: save a request
// into a collection, rename / delete / move requests, import an OpenAPI document into the catalog,
// import and export Postman v2.1 collections, copy a request as curl. Nothing here writes a secret:
// collections take {{references}} only, exports drop secrets, curl hides credentials behind $VARIABLES.
import * as vscode from 'vscode';
import { appendRequestBlock, removeRequestBlock, renameRequest, requestBlockText, secretProblem } from '../../core/collections/requestBlocks';
import { parseHttpFile, requestLabel } from '../../core/httpfile';
import { curlNetworkFlagsOf } from '../../core/interop/curlNetwork';
import { curlForHttpRequest, envFileWithImport, exportPostmanCollection, importPostmanCollection } from '../../core/interop';
import { knownSecretValues } from '../../core/secrets';
import { CONTRACT_SERVICES } from '../../core/catalog';
import { importCounts, importSummary } from '../../core/openapi';
import { formatCountOf } from '../../core/results/format';
import type { CatalogController } from '../catalog/catalogController';
import type { EnvironmentController } from '../environments/environmentController';
import type { RequestsNode } from '../requests/requestsTree';
import { faultText } from '../../core/text/faultText';
import { ENV_FILE_NAME } from '../../core/env/loadEnvFile';

export const COLLECTIONS_FOLDER = 'collections';

interface RequestRef { readonly uri: vscode.Uri; readonly index: number }

export class CollectionCommands {
  constructor(
    private readonly environments: EnvironmentController,
    private readonly catalogs: CatalogController,
  ) {}

  /** From a tree node, or the request under the cursor of the active .http editor. */
  requestAt(node?: RequestsNode): RequestRef | undefined {
    if (node?.kind === 'request') return { uri: node.uri, index: node.index };
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'http') {
      void vscode.window.showWarningMessage('API Workbench: put the cursor in a request of a .http file, or use the Requests view.');
      return undefined;
    }
    const line = editor.selection.active.line;
    const requests = parseHttpFile(editor.document.getText()).requests;
    const request = [...requests].reverse().find((r) => r.range.start.line <= line) ?? requests[0];
    if (!request) {
      void vscode.window.showWarningMessage('API Workbench: this file has no request.');
      return undefined;
    }
    return { uri: editor.document.uri, index: request.index };
  }

  /** `target`: the collection file to append to (scripts and tests); else the user picks one. */
  async saveToCollection(node?: RequestsNode, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const ref = this.requestAt(node);
    if (!ref) return undefined;
    return this.saveBlock(requestBlockText(await bufferText(ref.uri), ref.index), target);
  }

  /** Appends a request block to a collection file (picked when not given); refused when the block holds a secret. */
  async saveBlock(block: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    if (await this.refuseSecrets(block, 'saved')) return undefined;
    const file = target ?? await this.pickCollectionFile('Save to Collection');
    if (!file || await refuseDirty(file)) return undefined;
    await writeText(file, appendRequestBlock(await readText(file).catch(() => ''), block));
    void vscode.window.showInformationMessage(`API Workbench: saved to ${vscode.workspace.asRelativePath(file)}.`);
    return file;
  }

  async renameRequest(node?: RequestsNode): Promise<void> {
    const ref = this.requestAt(node);
    if (!ref || await refuseDirty(ref.uri)) return;
    const text = await readText(ref.uri);
    const current = parseHttpFile(text).requests.find((r) => r.index === ref.index)?.name ?? '';
    const name = await vscode.window.showInputBox({
      title: 'Rename Request', value: current, prompt: 'The request\'s # @name (letters, digits, ".", "_", "-")',
      validateInput: (v) => (/^[\w.-]+$/.test(v) ? undefined : 'Use letters, digits, ".", "_" or "-"'),
    });
    if (!name) return;
    await writeText(ref.uri, renameRequest(text, ref.index, name));
  }

  async deleteRequest(node?: RequestsNode): Promise<void> {
    const ref = this.requestAt(node);
    if (!ref || await refuseDirty(ref.uri)) return;
    const text = await readText(ref.uri);
    const label = requestLabel(parseHttpFile(text), ref.index);
    const answer = await vscode.window.showWarningMessage(`Delete '${label}' from ${vscode.workspace.asRelativePath(ref.uri)}?`, { modal: true }, 'Delete');
    if (answer !== 'Delete') return;
    await writeText(ref.uri, removeRequestBlock(text, ref.index));
  }

  async moveRequest(node?: RequestsNode): Promise<void> {
    const ref = this.requestAt(node);
    if (!ref || await refuseDirty(ref.uri)) return;
    const text = await readText(ref.uri);
    const block = requestBlockText(text, ref.index);
    if (await this.refuseSecrets(block, 'moved')) return;
    const target = await this.pickCollectionFile('Move Request to');
    if (!target || target.toString() === ref.uri.toString() || await refuseDirty(target)) return;
    // Write the destination first: if that fails, the request is still where it was.
    await writeText(target, appendRequestBlock(await readText(target).catch(() => ''), block));
    await writeText(ref.uri, removeRequestBlock(text, ref.index));
  }

  async copyAsCurl(node?: RequestsNode): Promise<string | undefined> {
    const ref = this.requestAt(node);
    if (!ref) return undefined;
    const file = parseHttpFile(await bufferText(ref.uri));
    const environment = this.environments.active;
    const curl = curlForHttpRequest(file, ref.index, { environment: environment?.variables ?? {} }, {
      knownSecrets: await knownSecretValues(this.environments.allSecrets),
      networkFlags: curlNetworkFlagsOf(await this.environments.network.resolve()),
      // The env file's values hold no secret (it refuses them): the tenant code in X-API-Key stays as written.
      nonSecretValues: Object.values(environment?.variables ?? {}),
      ...(environment ? { authEntries: environment.auth } : {}),
    });
    if (!curl) return undefined;
    await vscode.env.clipboard.writeText(curl.command);
    const note = curl.variables.length ? ` Set ${curl.variables.map((v) => `$${v}`).join(', ')} in your shell first (credentials are never copied; the comment lines say how to make each).` : '';
    void vscode.window.showInformationMessage(`API Workbench: curl command copied.${note}`);
    return curl.command;
  }

  async importOpenApi(source?: string): Promise<void> {
    const base = this.environments.active?.variables['fundraising_base_url'];
    const chosen = source ?? await vscode.window.showInputBox({
      title: 'Import OpenAPI Document',
      prompt: 'URL of the document (the fundraising service serves /openapi/v1.json), or a file path',
      value: base ? `${base}/openapi/v1.json` : '',
      ignoreFocusOut: true,
    });
    if (!chosen) return;
    try {
      const imported = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Importing ${chosen}…` }, () => this.catalogs.import(chosen));
      const warnings = imported.warnings.length ? ` ${formatCountOf(imported.warnings.length, 'warning')}: ${imported.warnings.slice(0, 3).join('; ')}` : '';
      // The same sentence as apiwb import-openapi (one function).
      void vscode.window.showInformationMessage(`API Workbench: ${importSummary(imported, importCounts(imported, CONTRACT_SERVICES))}${warnings}`);
    } catch (error) {
      void vscode.window.showErrorMessage(`API Workbench: ${faultText(error)}`);
    }
  }

  async refreshOpenApi(): Promise<void> {
    if (this.catalogs.imports.length === 0) {
      void vscode.window.showInformationMessage('API Workbench: no OpenAPI document imported yet.');
      return;
    }
    const problems = await this.catalogs.refresh();
    if (problems.length) void vscode.window.showErrorMessage(`API Workbench: ${problems.join(' | ')} (the last good import is kept)`);
    else void vscode.window.showInformationMessage(`API Workbench: ${this.catalogs.imports.length} OpenAPI import(s) refreshed.`);
  }

  async importPostman(file?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const source = file ?? (await vscode.window.showOpenDialog({ title: 'Import Postman Collection (v2.1)', filters: { 'Postman collection': ['json'] }, canSelectMany: false }))?.[0];
    const root = workspaceRoot();
    if (!source || !root) return undefined;
    try {
      const imported = importPostmanCollection(await readText(source), source.fsPath);
      // imported.folder and every file path are single safe segments: nothing lands outside the collection folder.
      const folder = vscode.Uri.joinPath(root, COLLECTIONS_FOLDER, imported.folder);
      // The env file is read and merged before any file is written: an env file that cannot take the
      // import stops it whole, never half way.
      const envUri = vscode.Uri.joinPath(root, ENV_FILE_NAME);
      const existing = await readText(envUri).catch(() => undefined);
      const envText = envFileWithImport(imported, existing, vscode.workspace.asRelativePath(envUri));
      for (const f of imported.files) await writeText(vscode.Uri.joinPath(folder, f.path), f.text);
      await writeText(envUri, envText);
      const listed = imported.dropped.slice(0, 5).map((d) => `${d.where}: ${d.what}${d.replacedBy ? ` → ${d.replacedBy}` : ''}`).join('; ');
      const dropped = imported.dropped.length
        ? ` ${imported.dropped.length} secret(s) were left out (set them with the credential commands): ${listed}${imported.dropped.length > 5 ? '; …' : ''}.`
        : '';
      void vscode.window.showInformationMessage(`API Workbench: imported ${imported.files.reduce((n, f) => n + f.requests, 0)} request(s) into ${vscode.workspace.asRelativePath(folder)}.${dropped}${warningsText(imported.warnings)}`);
      return folder;
    } catch (error) {
      void vscode.window.showErrorMessage(`API Workbench: ${faultText(error)}`);
      return undefined;
    }
  }

  async exportPostman(node?: RequestsNode, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const files = node?.kind === 'folder' ? node.files : node?.kind === 'file' ? [node.uri] : await this.pickCollectionFiles();
    if (!files || files.length === 0) return undefined;
    const name = node?.kind === 'folder' ? node.folder.split('/').pop() ?? 'collection' : 'API Workbench collection';
    const inputs = await Promise.all(files.map(async (uri) => ({ path: uri.path.split('/').pop() ?? 'requests.http', text: await readText(uri) })));
    const exported = exportPostmanCollection(inputs, {
      name, environment: this.environments.active?.variables ?? {}, knownSecrets: await knownSecretValues(this.environments.allSecrets),
    });
    const destination = target ?? await vscode.window.showSaveDialog({ title: 'Export to Postman', filters: { 'Postman collection': ['json'] }, defaultUri: vscode.Uri.joinPath(workspaceRoot() ?? files[0]!, `${name}.postman_collection.json`) });
    if (!destination) return undefined;
    await writeText(destination, exported.text);
    const dropped = exported.dropped.length ? ` ${exported.dropped.length} secret(s) were left out.` : '';
    void vscode.window.showInformationMessage(`API Workbench: exported to ${vscode.workspace.asRelativePath(destination)}.${dropped}${warningsText(exported.warnings)}`);
    return destination;
  }

  /** Collections are committed to git: a literal credential or a known secret keeps a request out. */
  private async refuseSecrets(block: string, verb: string): Promise<boolean> {
    const problem = secretProblem(block, await knownSecretValues(this.environments.allSecrets));
    if (problem) void vscode.window.showErrorMessage(`API Workbench: this request was not ${verb}: ${problem}.`);
    return problem !== undefined;
  }

  /** A collection's .http file: an existing one, or a new collection folder with requests.http. */
  private async pickCollectionFile(title: string): Promise<vscode.Uri | undefined> {
    const root = workspaceRoot();
    if (!root) {
      void vscode.window.showWarningMessage('API Workbench: open a workspace folder to keep collections in.');
      return undefined;
    }
    const files = await vscode.workspace.findFiles('**/*.{http,rest}', '**/node_modules/**', 2000);
    const NEW = '$(new-folder) New collection…';
    const pick = await vscode.window.showQuickPick(
      [{ label: NEW }, ...files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))],
      { title, placeHolder: 'A collection file, or a new collection' },
    );
    if (!pick) return undefined;
    if ('uri' in pick && pick.uri) return pick.uri;
    const name = await vscode.window.showInputBox({ title: 'New collection', prompt: `Folder name under ${COLLECTIONS_FOLDER}/`, validateInput: (v) => (/^[\w.-]+$/.test(v) ? undefined : 'Use letters, digits, ".", "_" or "-"') });
    return name ? vscode.Uri.joinPath(root, COLLECTIONS_FOLDER, name, 'requests.http') : undefined;
  }

  private async pickCollectionFiles(): Promise<vscode.Uri[] | undefined> {
    const files = await vscode.workspace.findFiles('**/*.{http,rest}', '**/node_modules/**', 2000);
    const picks = await vscode.window.showQuickPick(files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })), { title: 'Export to Postman', canPickMany: true });
    return picks?.map((p) => p.uri);
  }
}

/** An import's or export's warnings (what was not carried), the first three and how many more: none is left unsaid. */
function warningsText(warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  const more = warnings.length > 3 ? ` (and ${warnings.length - 3} more)` : '';
  return ` ${warnings.length} warning(s): ${warnings.slice(0, 3).join(' ')}${more}`;
}

function workspaceRoot(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** The text as the editor has it (unsaved edits included). */
async function bufferText(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

/** Edits write the file on disk: with unsaved changes in an editor they would clash, so ask to save first. */
function refuseDirty(uri: vscode.Uri): Promise<boolean> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!open?.isDirty) return Promise.resolve(false);
  void vscode.window.showWarningMessage(`API Workbench: ${vscode.workspace.asRelativePath(uri)} has unsaved changes: save it first.`);
  return Promise.resolve(true);
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

async function writeText(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}
