// The catalog the extension shows: the contracts plus any imported OpenAPI overlays. Imports are kept as
// overlay files in the extension's global storage (they hold no secret: an OpenAPI document's shapes)
// so they survive a restart, and can be refreshed from their source.
import type { SecretBindings } from '../../core/secrets/bindings';
import * as vscode from 'vscode';
import { createCatalog, type Catalog, type Service } from '../../core/catalog';
import { bookingService } from '../../core/catalog/booking';
import { engagementService } from '../../core/catalog/engagement';
import { fundraisingService } from '../../core/catalog/fundraising';
import { importOpenApiText, importOpenApiUrl, OverlaySet, overlayFileText, readOverlayFile, sourceKey, toCatalogOverlayParams, type OpenApiImport } from '../../core/openapi';
import type { CatalogOverlayParams } from '../../protocol/lsp';
import { isSecretName } from '../../core/secrets';
import { faultText } from '../../core/text/faultText';

const BASE_SERVICES: readonly Service[] = [engagementService, fundraisingService, bookingService];

export class CatalogController implements vscode.Disposable {
  private readonly overlays = new OverlaySet();
  private services: readonly Service[] = BASE_SERVICES;
  private catalog: Catalog = createCatalog(BASE_SERVICES);
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** `guard`: the secrets the editor holds, for the send boundary (an import's fetch passes it like any send). */
  constructor(private readonly storage: vscode.Uri, private readonly log: (line: string) => void, private readonly guard?: () => Promise<SecretBindings>) {}

  get current(): Catalog {
    return this.catalog;
  }

  get imports(): readonly OpenApiImport[] {
    return this.overlays.list();
  }

  private get folder(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'openapi-overlays');
  }

  /** Loads the overlays kept from earlier sessions; a broken one is reported and skipped. */
  async restore(): Promise<void> {
    let entries: [string, vscode.FileType][] = [];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.folder);
    } catch {
      return;
    }
    for (const [name] of entries.filter(([n]) => n.endsWith('.json'))) {
      const uri = vscode.Uri.joinPath(this.folder, name);
      try {
        this.overlays.set(readOverlayFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), uri.fsPath));
      } catch (error) {
        this.log(`OpenAPI overlay ${name} skipped: ${faultText(error)}`);
      }
    }
    this.rebuild();
  }

  /** Imports from an http(s) URL or a file path; replaces an earlier import of the same source. */
  async import(source: string): Promise<OpenApiImport> {
    const isUrl = /^https?:\/\//i.test(source);
    if (isUrl) refuseCredentialsInUrl(source);
    const imported = isUrl
      ? await importOpenApiUrl(source, this.guard ? { send: { guard: await this.guard() } } : {})
      : importOpenApiText(new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri(source))), source);
    this.overlays.set(imported);
    await vscode.workspace.fs.createDirectory(this.folder);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.folder, `${sourceKey(imported.source).replace(/[^\w.-]+/g, '_')}.json`), new TextEncoder().encode(overlayFileText(imported)));
    this.rebuild();
    return imported;
  }

  /** Re-imports every source; the ones that fail keep their last good overlay. */
  async refresh(): Promise<string[]> {
    const problems: string[] = [];
    for (const imported of this.overlays.list()) {
      try {
        await this.import(imported.source);
      } catch (error) {
        problems.push(faultText(error));
      }
    }
    return problems;
  }

  lspParams(): CatalogOverlayParams {
    return toCatalogOverlayParams(this.services, this.overlays.list().map((i) => i.source).join(', ') || undefined);
  }

  private rebuild(): void {
    this.services = this.overlays.apply(BASE_SERVICES);
    this.catalog = createCatalog(this.services);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The source is kept (overlay file, tooltips, the language server): it must not carry a credential. */
function refuseCredentialsInUrl(source: string): void {
  const url = new URL(source);
  const secretParameter = [...url.searchParams.keys()].find((key) => isSecretName(key));
  if (url.username || url.password || secretParameter) {
    throw new Error(`${url.origin}${url.pathname}: the address carries a credential (${secretParameter ? `query parameter '${secretParameter}'` : 'user:password@'}); import a document that needs no credential in its address, or save it to a file and import the file`);
  }
}

/** A file path as typed: relative paths are relative to the workspace, not the editor's process. */
function fileUri(path: string): vscode.Uri {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return path.startsWith('/') || !root ? vscode.Uri.file(path) : vscode.Uri.joinPath(root, path);
}
