// Generate Code and Generate Paging Loop: the request under the cursor (or a Requests view node) as code,
// opened in an untitled editor of its language. The generators are the CLI's (src/core/codegen), in a
// bundle of their own (dist/codegen.js, with httpsnippet) loaded on first use. Secrets never reach the
// code: it reads them from APIWB_SECRET_* variables, and every secret this editor holds is searched for.
import * as vscode from 'vscode';
import type * as Codegen from '../../core/codegen';
import { parseHttpFile } from '../../core/httpfile';
import { knownSecretValues } from '../../core/secrets';
import type { CatalogController } from '../catalog/catalogController';
import type { EnvironmentController } from '../environments/environmentController';
import { readIncludedBody } from '../workspaceTrust';
import { faultText } from '../../core/text/faultText';

export interface RequestRef { readonly uri: vscode.Uri; readonly index: number }

let loaded: typeof Codegen | undefined;

/** The generators' bundle, required on first use (see scripts/extensionBundles.mjs). */
function codegen(): typeof Codegen {
  return (loaded ??= require('./codegen.js') as typeof Codegen);
}

export class GenerateCommands {
  constructor(
    private readonly environments: EnvironmentController,
    private readonly catalogs: CatalogController,
    private readonly requestAt: (node: unknown) => RequestRef | undefined,
  ) {}

  /** `lang`: a --lang id (tests, keybindings); else the user picks one. Returns the opened document. */
  generateCode(node?: unknown, lang?: string): Promise<vscode.TextDocument | undefined> {
    return this.generate(node, lang, 'Generate Code', () => codegen().SNIPPET_LANGUAGES, (input, id) => codegen().generateSnippet(input, id));
  }

  generatePagingLoop(node?: unknown, lang?: string): Promise<vscode.TextDocument | undefined> {
    return this.generate(node, lang, 'Generate Paging Loop', () => codegen().PAGING_LANGUAGES, (input, id) => codegen().generatePagingLoop(input, id));
  }

  private async generate(
    node: unknown, lang: string | undefined, title: string, languages: () => readonly { readonly id: string; readonly label: string }[],
    make: (input: Codegen.GenerateInput, id: string) => Promise<Codegen.GeneratedCode>,
  ): Promise<vscode.TextDocument | undefined> {
    const ref = this.requestAt(node);
    if (!ref) return undefined;
    const id = lang ?? (await vscode.window.showQuickPick(languages().map((l) => ({ label: l.label, description: l.id, id: l.id })), { title, placeHolder: 'Language' }))?.id;
    if (!id) return undefined;
    return this.open(ref, (input) => make(input, id));
  }

  private async open(ref: RequestRef, make: (input: Codegen.GenerateInput) => Promise<Codegen.GeneratedCode>): Promise<vscode.TextDocument | undefined> {
    const environment = this.environments.active;
    if (!environment) {
      void vscode.window.showWarningMessage('API Workbench: select an environment first: generated code is resolved against it.');
      return undefined;
    }
    const document = await vscode.workspace.openTextDocument(ref.uri);
    try {
      const generated = await make({
        file: parseHttpFile(document.getText()), requestIndex: ref.index, environment,
        allEnvironments: Object.values(this.environments.envFile?.environments ?? { [environment.name]: environment }), catalog: this.catalogs.current,
        readInclude: (path, encoding, strict) => readIncludedBody(ref.uri, path, encoding, strict),
        knownSecrets: await knownSecretValues(this.environments.allSecrets),
      });
      const opened = await vscode.workspace.openTextDocument({ language: generated.languageId, content: generated.code });
      await vscode.window.showTextDocument(opened, { preview: false });
      return opened;
    } catch (error) {
      void vscode.window.showErrorMessage(`API Workbench: ${faultText(error)}`);
      return undefined;
    }
  }
}

