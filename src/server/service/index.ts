// The pure language service: completion, hover, diagnostics, CodeLens, outline and folding as functions
// of a parsed `.http` document, the catalog and the active environment's variable names. No connection,
// no network, no secrets: src/server/ only translates LSP requests into these calls.
import type { CodeLens, CompletionList, Diagnostic, DocumentSymbol, FoldingRange, Hover, Position } from 'vscode-languageserver';
import { createCatalog, type Catalog } from '../../core/catalog';
import { citationsAsMarkdown, citationsAsText, firstCitation, type CitationLinker } from '../../core/reference';
import type { ServiceContext } from './context';
import { doComplete } from './completion';
import { doHover } from './hover';
import { BlockFindingsCache, validateDocument, validationSteps, type ValidationProgress } from './validation';
import { codeLenses, documentSymbols, foldingRanges } from './outline';
import { OperationIndex, type OverlayOperation } from './operations';
import type { HttpDocument } from './document';
import type { EnvFileVariable } from '../../core/env/envFileNames';

export { HttpDocument, HttpDocumentCache } from './document';
export { type OverlayOperation } from './operations';
export { doComplete, doHover, codeLenses, documentSymbols, foldingRanges };
export { BlockFindingsCache } from './validation';

export interface HttpLanguageService {
  doComplete(document: HttpDocument, position: Position): CompletionList;
  doHover(document: HttpDocument, position: Position): Hover | null;
  doValidate(document: HttpDocument): Diagnostic[];
  /**
   * The same diagnostics, in slices: each next() does a few ms of work and yields how far it got (with
   * the blocks done so far as diagnostics, on demand); the last returns them all. With a cache kept per
   * document, a new version re-validates only the blocks whose text changed.
   */
  validationSteps(document: HttpDocument, cache?: BlockFindingsCache): Generator<ValidationProgress, Diagnostic[]>;
  codeLenses(document: HttpDocument): CodeLens[];
  documentSymbols(document: HttpDocument): DocumentSymbol[];
  foldingRanges(document: HttpDocument): FoldingRange[];
  /** Names (never values) of the active environment's variables; undefined = no environment known. */
  setEnvironmentVariables(names: readonly string[] | undefined): void;
  /** Names the server read from the env files (never values): completed while the client has sent none. */
  setEnvFileVariables(variables: readonly EnvFileVariable[]): void;
  /** Operations imported from an OpenAPI document; they replace the previous overlay. */
  setOverlay(operations: readonly OverlayOperation[]): void;
  /** Where contract citations open (none set: citations are named, not linked). */
  setCitationLinks(links: CitationLinks): void;
}

/**
 * Links for contract citations: `markdown` for hovers and completion documentation, `diagnostics` for a
 * diagnostic's code description (only when the client supports it).
 */
export interface CitationLinks {
  readonly markdown?: CitationLinker;
  readonly diagnostics?: CitationLinker;
}

export function createHttpLanguageService(catalog: Catalog = createCatalog()): HttpLanguageService {
  let context: ServiceContext = { operations: new OperationIndex(catalog) };
  let links: CitationLinks = {};
  return {
    doComplete: (document, position) => completionCitations(doComplete(document, position, context), links),
    doHover: (document, position) => hoverCitations(doHover(document, position, context), links),
    doValidate: (document) => validateDocument(document, context).map((d) => diagnosticCitation(d, links)),
    validationSteps: function* (document, cache) {
      const steps = validationSteps(document, context, cache);
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value.map((d) => diagnosticCitation(d, links));
        const progress = step.value;
        yield { blocksDone: progress.blocksDone, blockCount: progress.blockCount, partial: () => progress.partial().map((d) => diagnosticCitation(d, links)) };
      }
    },
    codeLenses: (document) => codeLenses(document, context),
    documentSymbols: (document) => documentSymbols(document),
    foldingRanges: (document) => foldingRanges(document),
    setEnvironmentVariables(names) {
      context = { ...context, environmentVariables: names ? [...names] : undefined };
    },
    setEnvFileVariables(variables) {
      context = { ...context, envFileVariables: [...variables] };
    },
    setOverlay(operations) {
      context = { ...context, operations: context.operations.withOverlay(operations) };
    },
    setCitationLinks(next) {
      links = next;
    },
  };
}

// The service's text writes citations as the catalog does ("seed 000 §2.1"); on the way out they are
// named in the product's words and linked to the shipped contract reference (core/reference).
const cites = (text: string): boolean => text.includes('seed 00');

function hoverCitations(hover: Hover | null, links: CitationLinks): Hover | null {
  const contents = hover?.contents;
  if (!hover || typeof contents !== 'object' || !('kind' in contents) || !cites(contents.value)) return hover;
  return { ...hover, contents: { ...contents, value: contents.kind === 'markdown' ? citationsAsMarkdown(contents.value, links.markdown) : citationsAsText(contents.value) } };
}

function completionCitations(list: CompletionList, links: CitationLinks): CompletionList {
  if (!list.items.some((i) => (i.detail && cites(i.detail)) || (i.documentation && cites(typeof i.documentation === 'string' ? i.documentation : i.documentation.value)))) return list;
  return {
    ...list,
    items: list.items.map((item) => ({
      ...item,
      ...(item.detail && cites(item.detail) ? { detail: citationsAsText(item.detail) } : {}),
      ...(item.documentation === undefined ? {} : {
        documentation: typeof item.documentation === 'string'
          ? citationsAsText(item.documentation)
          : { ...item.documentation, value: item.documentation.kind === 'markdown' ? citationsAsMarkdown(item.documentation.value, links.markdown) : citationsAsText(item.documentation.value) },
      }),
    })),
  };
}

function diagnosticCitation(diagnostic: Diagnostic, links: CitationLinks): Diagnostic {
  if (!cites(diagnostic.message)) return diagnostic;
  const citation = firstCitation(diagnostic.message);
  const href = citation && diagnostic.code !== undefined ? links.diagnostics?.(citation) : undefined;
  return { ...diagnostic, message: citationsAsText(diagnostic.message), ...(href ? { codeDescription: { href } } : {}) };
}
