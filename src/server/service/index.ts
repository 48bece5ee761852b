// The pure language service: completion, hover, diagnostics, CodeLens, outline and folding as functions
// of a parsed `.http` document, the catalog and the active environment's variable names. No connection,
// no network, no secrets: src/server/ only translates LSP requests into these calls.
import type { CodeLens, CompletionList, Diagnostic, DocumentSymbol, FoldingRange, Hover, Position } from 'vscode-languageserver';
import { createCatalog, type Catalog } from '../../core/catalog';
import type { ServiceContext } from './context';
import { doComplete } from './completion';
import { doHover } from './hover';
import { BlockFindingsCache, validateDocument, validationSteps } from './validation';
import { codeLenses, documentSymbols, foldingRanges } from './outline';
import { OperationIndex, type OverlayOperation } from './operations';
import type { HttpDocument } from './document';

export { HttpDocument, HttpDocumentCache } from './document';
export { OperationIndex, BASE_URL_VARIABLES, pathOf, type KnownOperation, type OverlayOperation } from './operations';
export type { ServiceContext } from './context';
export { doComplete, doHover, codeLenses, documentSymbols, foldingRanges };
export { BlockFindingsCache, VALIDATION_SLICE_MS } from './validation';

export interface HttpLanguageService {
  doComplete(document: HttpDocument, position: Position): CompletionList;
  doHover(document: HttpDocument, position: Position): Hover | null;
  doValidate(document: HttpDocument): Diagnostic[];
  /**
   * The same diagnostics, in slices: each next() does a few ms of work; the last returns them. With a
   * cache kept per document, a new version re-validates only the blocks whose text changed.
   */
  validationSteps(document: HttpDocument, cache?: BlockFindingsCache): Generator<void, Diagnostic[]>;
  codeLenses(document: HttpDocument): CodeLens[];
  documentSymbols(document: HttpDocument): DocumentSymbol[];
  foldingRanges(document: HttpDocument): FoldingRange[];
  /** Names (never values) of the active environment's variables; undefined = no environment known. */
  setEnvironmentVariables(names: readonly string[] | undefined): void;
  /** Operations imported from an OpenAPI document; they replace the previous overlay. */
  setOverlay(operations: readonly OverlayOperation[]): void;
}

export function createHttpLanguageService(catalog: Catalog = createCatalog()): HttpLanguageService {
  let context: ServiceContext = { operations: new OperationIndex(catalog) };
  return {
    doComplete: (document, position) => doComplete(document, position, context),
    doHover: (document, position) => doHover(document, position, context),
    doValidate: (document) => validateDocument(document, context),
    validationSteps: (document, cache) => validationSteps(document, context, cache),
    codeLenses: (document) => codeLenses(document, context),
    documentSymbols: (document) => documentSymbols(document),
    foldingRanges: (document) => foldingRanges(document),
    setEnvironmentVariables(names) {
      context = { ...context, environmentVariables: names ? [...names] : undefined };
    },
    setOverlay(operations) {
      context = { ...context, operations: context.operations.withOverlay(operations) };
    },
  };
}
