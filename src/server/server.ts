// The language server's wiring: LSP requests and notifications in, language-service calls out. It holds
// open documents and the active environment's variable names — never a value, never a secret — and
// makes no network call.
import {
  DiagnosticSeverity, DidChangeConfigurationNotification, TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver';
import { dirname } from 'node:path';
import {
  CatalogOverlayNotification, catalogOverlayParams, EnvironmentChangedNotification, environmentChangedParams, CONFIGURATION_SECTION,
} from '../protocol/lsp';
import { BlockFindingsCache, createHttpLanguageService, HttpDocumentCache, type HttpDocument } from './service';
import { BlockText } from './service/blockText';
import { overlayOperations } from './overlay';
import { citationLinksFor, locateContractReference } from './reference';
import { clientFormats, fitCompletion, fitHover, FULL_FORMATS, type ClientFormats } from './service/clientCapabilities';
import { privateEnvWarnings } from './privateEnvWarning';
import { EnvFileNames } from './envFileNames';
import { warmUp } from './warmUp';
import { OpeningGates } from './openingGates';

/** Pause after the last change (not the first) before diagnostics are recomputed. */
export const VALIDATION_DELAY_MS = 200;

/** While a file has not been published whole, the least time between two publications of its parts. */
const PROGRESS_INTERVAL_MS = 100;

/** `initializationOptions.validationDelayMs`: another pause (0–10 000 ms), for clients that want one (and tests). */
export function validationDelayFrom(options: unknown): number {
  const given = typeof options === 'object' && options !== null ? (options as { validationDelayMs?: unknown }).validationDelayMs : undefined;
  return typeof given === 'number' && Number.isInteger(given) && given >= 0 && given <= 10_000 ? given : VALIDATION_DELAY_MS;
}

/** An open document as the server keeps it: its text as request blocks, an edit re-cutting only the blocks it touches. */
interface KeptDocument {
  readonly uri: string;
  readonly version: number;
  readonly blocks: BlockText;
}

/** Incremental sync into BlockText: what a change costs is what it touches, not the file. */
const KEPT_DOCUMENTS = {
  create: (uri: string, _languageId: string, version: number, content: string): KeptDocument => ({ uri, version, blocks: BlockText.of(content) }),
  update: (document: KeptDocument, changes: readonly TextDocumentContentChangeEvent[], version: number): KeptDocument => ({ uri: document.uri, version, blocks: document.blocks.withChanges(changes) }),
};

export const COMPLETION_TRIGGER_CHARACTERS = ['/', '"', '{', ':', ' ', '?', '&', '@'];

/** `referenceFrom`: a folder at or below the package, to find the shipped contract reference from (citation links). */
export function startServer(connection: Connection, referenceFrom: string = process.argv[1] ? dirname(process.argv[1]) : process.cwd()): void {
  const documents = new TextDocuments(KEPT_DOCUMENTS);
  const service = createHttpLanguageService();
  const cache = new HttpDocumentCache();
  // A validation due (its timer, or its immediate for a file just opened), as the function that cancels it.
  const pendingValidation = new Map<string, () => void>();
  // A document is anything a user (or a hostile file) typed: no handler or timer may take the server down.
  // A throw is logged and answered with the empty result.
  const guard = <A extends unknown[], R>(what: string, fallback: R, handler: (...args: A) => R) => (...args: A): R => {
    try {
      return handler(...args);
    } catch (error) {
      connection.console.error(`${what} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      return fallback;
    }
  };
  const findings = new Map<string, BlockFindingsCache>();

  // As a file opens, what waits for its first publication or its first pass (openingGates.ts).
  const gates = new OpeningGates();
  const openingDone = (uri: string): void => gates.passDone(uri);

  const parsed = (uri: string): HttpDocument | undefined => {
    const document = documents.get(uri);
    return document && cache.get(uri, document.version, () => document.blocks);
  };

  // Validation waits for a pause in typing, then runs in slices of a few ms (setImmediate between
  // them), so a completion asked meanwhile is answered between two slices, and a pass that a newer
  // version made stale stops. Each document keeps its blocks' findings: only changed blocks are redone.
  // A file not yet published whole (it has just opened) is published as its pass goes: the first slice's
  // blocks (the top of the file, in view) at once, then what is done at most every PROGRESS_INTERVAL_MS,
  // then the whole; once published whole, a file is published whole only (a part would hide the
  // diagnostics of the blocks below until the pass reached them).
  const publishedWhole = new Set<string>();
  const validate = (uri: string): void => {
    const document = parsed(uri);
    if (!document) return openingDone(uri);
    let blockFindings = findings.get(uri);
    if (!blockFindings) findings.set(uri, (blockFindings = new BlockFindingsCache()));
    const steps = service.validationSteps(document, blockFindings);
    let lastPart = -Infinity;
    const step = (): void => {
      let ended = true; // published, stale or failed: what waits for the open's pass may go
      guard('validation', undefined, (): void => {
        if (pendingValidation.has(uri) || documents.get(uri)?.version !== document.version) return; // stale: a newer pass is due
        const next = steps.next();
        ended = false;
        if (!next.done) {
          if (publishedWhole.has(uri) || performance.now() - lastPart < PROGRESS_INTERVAL_MS) return void setImmediate(step);
          lastPart = performance.now();
          // The next slice once the transport has taken this part (over stdio it is written on a later
          // turn of the event loop: after the slices, were they queued first).
          const resume = (): void => {
            gates.published(uri);
            setImmediate(step);
          };
          return void connection.sendDiagnostics({ uri, version: document.version, diagnostics: next.value.partial() }).then(resume, resume);
        }
        publishedWhole.add(uri);
        // What waits for the publication goes once the transport has taken it, not once it is queued:
        // over stdio the writer sends on a later turn of the event loop, and the waiting requests (three
        // answers as the file opens) would run first and hold the diagnostics back. Over node IPC (how
        // VS Code starts this server) the send is taken at once, so nothing changes there.
        const waiting = gates.pass(uri);
        const published = (): void => {
          if (gates.isPass(uri, waiting)) openingDone(uri);
        };
        connection.sendDiagnostics({ uri, version: document.version, diagnostics: next.value }).then(published, published);
      })();
      if (ended) openingDone(uri);
    };
    step();
  };
  let validationDelay = VALIDATION_DELAY_MS;
  const scheduleValidation = (uri: string, delay = validationDelay): void => {
    pendingValidation.get(uri)?.();
    const run = guard('validation', undefined, () => {
      pendingValidation.delete(uri);
      try {
        validate(uri);
      } catch (error) {
        // Failed before its first slice (a file the parser throws on): what waits for the open's pass
        // goes now, as after a slice that throws, rather than until the file changes or closes.
        openingDone(uri);
        throw error;
      }
    });
    if (delay === 0) {
      const immediate = setImmediate(run);
      pendingValidation.set(uri, () => clearImmediate(immediate));
    } else {
      const timer = setTimeout(run, delay);
      pendingValidation.set(uri, () => clearTimeout(timer));
    }
  };
  const revalidateAll = (): void => documents.all().forEach((d) => scheduleValidation(d.uri));

  // The env files' variable names for clients that send none (envFileNames.ts).
  const envFileNames = new EnvFileNames((names) => service.setEnvFileVariables(names), (line) => connection.console.warn(line));
  let canRegisterConfiguration = false;
  let formats: ClientFormats = FULL_FORMATS;
  let folderUris: string[] = [];
  connection.onInitialize((params): InitializeResult => {
    formats = clientFormats(params.capabilities);
    validationDelay = validationDelayFrom(params.initializationOptions);
    canRegisterConfiguration = params.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    service.setCitationLinks(citationLinksFor(params, locateContractReference(referenceFrom)));
    folderUris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    envFileNames.initialize(params);
    guard('warm-up', undefined, () => warmUp(service))();
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
    void envFileNames.start(connection);
    // Clients that support dynamic registration then tell us about configuration changes.
    if (canRegisterConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: CONFIGURATION_SECTION }).catch(() => undefined);
    }
    // A private env file git would commit: a warning on the file itself (Problems view) and one message.
    void privateEnvWarnings(folderUris).then((warnings) => {
      for (const warning of warnings) {
        void connection.sendDiagnostics({
          uri: warning.uri,
          diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: DiagnosticSeverity.Warning, source: 'API Workbench', code: 'private-env-not-ignored', message: warning.message }],
        });
        void connection.window.showWarningMessage(`API Workbench: ${warning.message}`);
      }
    }, (error: unknown) => connection.console.warn(`private env check failed: ${String(error)}`));
  });

  const openedVersion = new Map<string, number>();
  documents.onDidOpen(guard('open', undefined, (event) => {
    gates.opened(event.document.uri);
    openedVersion.set(event.document.uri, event.document.version);
    scheduleValidation(event.document.uri, 0);
    void envFileNames.opened(event.document.uri, gates.firstPublication(event.document.uri));
  }));
  documents.onDidChangeContent(guard('change', undefined, (event) => {
    // The open fires both events: its immediate check must not be pushed back by the change event.
    if (event.document.version === openedVersion.get(event.document.uri)) return;
    openingDone(event.document.uri);
    scheduleValidation(event.document.uri);
  }));
  documents.onDidClose(guard('close', undefined, (event) => {
    openingDone(event.document.uri);
    pendingValidation.get(event.document.uri)?.();
    pendingValidation.delete(event.document.uri);
    publishedWhole.delete(event.document.uri);
    cache.delete(event.document.uri);
    findings.delete(event.document.uri);
    openedVersion.delete(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] }).catch(() => undefined);
  }));

  // A completion asked while the env files are being read waits for their names (a few ms, once per open).
  connection.onCompletion((params) => envFileNames.afterReads(guard('completion', null, () => {
    const document = parsed(params.textDocument.uri);
    return document ? fitCompletion(service.doComplete(document, params.position), formats) : null;
  })));
  connection.onHover(guard('hover', null, (params) => {
    const document = parsed(params.textDocument.uri);
    return document ? fitHover(service.doHover(document, params.position), formats) : null;
  }));
  connection.onCodeLens((params) => gates.afterPass(params.textDocument.uri, guard('code lenses', [], () => {
    const document = parsed(params.textDocument.uri);
    return document ? service.codeLenses(document) : [];
  })));
  connection.onDocumentSymbol((params) => gates.afterPass(params.textDocument.uri, guard('outline', [], () => {
    const document = parsed(params.textDocument.uri);
    return document ? service.documentSymbols(document) : [];
  })));
  connection.onFoldingRanges((params) => gates.afterPass(params.textDocument.uri, guard('folding', [], () => {
    const document = parsed(params.textDocument.uri);
    return document ? service.foldingRanges(document) : [];
  })));

  connection.onNotification(EnvironmentChangedNotification, guard('environment change', undefined, (params: unknown) => {
    const parsedParams = environmentChangedParams.safeParse(params);
    if (!parsedParams.success) {
      connection.console.warn(`${EnvironmentChangedNotification}: ignored a malformed payload`);
      return;
    }
    service.setEnvironmentVariables(parsedParams.data.variables);
    revalidateAll();
  }));
  // `apiWorkbench.environmentVariables` in settings works for clients without the custom notification.
  connection.onDidChangeConfiguration(guard('configuration change', undefined, (change) => {
    const settings = (change.settings as Record<string, unknown> | undefined)?.[CONFIGURATION_SECTION] as { environmentVariables?: unknown } | undefined;
    const names = environmentChangedParams.shape.variables.safeParse(settings?.environmentVariables);
    if (names.success) {
      service.setEnvironmentVariables(names.data);
      revalidateAll();
    }
  }));
  connection.onNotification(CatalogOverlayNotification, guard('catalog overlay', undefined, (params: unknown) => {
    const parsedParams = catalogOverlayParams.safeParse(params);
    if (!parsedParams.success) {
      connection.console.warn(`${CatalogOverlayNotification}: ignored a malformed payload`);
      return;
    }
    service.setOverlay(overlayOperations(parsedParams.data));
    revalidateAll();
  }));

  documents.listen(connection);
  connection.listen();
}
