// The language server's wiring: LSP requests and notifications in, language-service calls out. It holds
// open documents and the active environment's variable names — never a value, never a secret — and
// makes no network call.
import {
  DidChangeConfigurationNotification, TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CatalogOverlayNotification, catalogOverlayParams, EnvironmentChangedNotification, environmentChangedParams, CONFIGURATION_SECTION,
} from '../protocol/lsp';
import { BlockFindingsCache, createHttpLanguageService, HttpDocumentCache, type HttpDocument } from './service';
import { overlayOperations } from './overlay';

/** Pause after the last change (not the first) before diagnostics are recomputed. */
export const VALIDATION_DELAY_MS = 200;

export const COMPLETION_TRIGGER_CHARACTERS = ['/', '"', '{', ':', ' ', '?', '&', '@'];

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const service = createHttpLanguageService();
  const cache = new HttpDocumentCache();
  const pendingValidation = new Map<string, NodeJS.Timeout>();
  const findings = new Map<string, BlockFindingsCache>();

  const parsed = (uri: string): HttpDocument | undefined => {
    const document = documents.get(uri);
    return document && cache.get(uri, document.version, () => document.getText());
  };

  // Validation waits for a pause in typing, then runs in slices of a few ms (setImmediate between
  // them), so a completion asked meanwhile is answered between two slices, and a pass that a newer
  // version made stale stops. Each document keeps its blocks' findings: only changed blocks are redone.
  const validate = (uri: string): void => {
    const document = parsed(uri);
    if (!document) return;
    let blockFindings = findings.get(uri);
    if (!blockFindings) findings.set(uri, (blockFindings = new BlockFindingsCache()));
    const steps = service.validationSteps(document, blockFindings);
    const step = (): void => {
      if (pendingValidation.has(uri) || documents.get(uri)?.version !== document.version) return; // stale: a newer pass is due
      const next = steps.next();
      if (!next.done) return void setImmediate(step);
      void connection.sendDiagnostics({ uri, version: document.version, diagnostics: next.value });
    };
    step();
  };
  const scheduleValidation = (uri: string, delay = VALIDATION_DELAY_MS): void => {
    const pending = pendingValidation.get(uri);
    if (pending) clearTimeout(pending);
    pendingValidation.set(uri, setTimeout(() => {
      pendingValidation.delete(uri);
      validate(uri);
    }, delay));
  };
  const revalidateAll = (): void => documents.all().forEach((d) => scheduleValidation(d.uri));

  let canRegisterConfiguration = false;
  connection.onInitialize((params): InitializeResult => {
    canRegisterConfiguration = params.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    return initializeResult();
  });
  const initializeResult = (): InitializeResult => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: COMPLETION_TRIGGER_CHARACTERS, resolveProvider: false },
      hoverProvider: true,
      codeLensProvider: { resolveProvider: false },
      documentSymbolProvider: true,
      foldingRangeProvider: true,
    },
    serverInfo: { name: 'api-workbench-http' },
  });
  connection.onInitialized(() => {
    // Clients that support dynamic registration then tell us about configuration changes.
    if (canRegisterConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: CONFIGURATION_SECTION }).catch(() => undefined);
    }
  });

  const openedVersion = new Map<string, number>();
  documents.onDidOpen((event) => {
    openedVersion.set(event.document.uri, event.document.version);
    scheduleValidation(event.document.uri, 0);
  });
  documents.onDidChangeContent((event) => {
    // The open fires both events: its immediate check must not be pushed back by the change event.
    if (event.document.version === openedVersion.get(event.document.uri)) return;
    scheduleValidation(event.document.uri);
  });
  documents.onDidClose((event) => {
    cache.delete(event.document.uri);
    findings.delete(event.document.uri);
    openedVersion.delete(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  connection.onCompletion((params) => {
    const document = parsed(params.textDocument.uri);
    return document ? service.doComplete(document, params.position) : null;
  });
  connection.onHover((params) => {
    const document = parsed(params.textDocument.uri);
    return document ? service.doHover(document, params.position) : null;
  });
  connection.onCodeLens((params) => {
    const document = parsed(params.textDocument.uri);
    return document ? service.codeLenses(document) : [];
  });
  connection.onDocumentSymbol((params) => {
    const document = parsed(params.textDocument.uri);
    return document ? service.documentSymbols(document) : [];
  });
  connection.onFoldingRanges((params) => {
    const document = parsed(params.textDocument.uri);
    return document ? service.foldingRanges(document) : [];
  });

  connection.onNotification(EnvironmentChangedNotification, (params: unknown) => {
    const parsedParams = environmentChangedParams.safeParse(params);
    if (!parsedParams.success) {
      connection.console.warn(`${EnvironmentChangedNotification}: ignored a malformed payload`);
      return;
    }
    service.setEnvironmentVariables(parsedParams.data.variables);
    revalidateAll();
  });
  // `apiWorkbench.environmentVariables` in settings works for clients without the custom notification.
  connection.onDidChangeConfiguration((change) => {
    const settings = (change.settings as Record<string, unknown> | undefined)?.[CONFIGURATION_SECTION] as { environmentVariables?: unknown } | undefined;
    const names = environmentChangedParams.shape.variables.safeParse(settings?.environmentVariables);
    if (names.success) {
      service.setEnvironmentVariables(names.data);
      revalidateAll();
    }
  });
  connection.onNotification(CatalogOverlayNotification, (params: unknown) => {
    const parsedParams = catalogOverlayParams.safeParse(params);
    if (!parsedParams.success) {
      connection.console.warn(`${CatalogOverlayNotification}: ignored a malformed payload`);
      return;
    }
    service.setOverlay(overlayOperations(parsedParams.data));
    revalidateAll();
  });

  documents.listen(connection);
  connection.listen();
}
