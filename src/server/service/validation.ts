// Diagnostics of a whole document, incrementally: a `.http` file is a list of request blocks, and what a
// block says about itself (parse problems, contract checks, body validation) depends only on its own
// text. So each block is validated as a document of its own (its text alone, lines counted from its
// first line) and its findings are kept by that text; a new version re-parses and re-validates only the
// blocks whose text changed (typing touches one) and moves the others to their new lines. The blocks
// are cut from the text by offsets (blockStartOffsets) and placed by the line breaks each one holds, so
// a pass over an unchanged 50 000-line file makes no string per line. Undefined variables depend on
// the rest of the file (file variables, the requests named before) and are recomputed each time from
// each block's kept summary — cheap.
// The work is a generator that yields every few milliseconds, so a server can answer a completion
// between two slices and drop a validation that a newer version made stale.
import type { Diagnostic } from 'vscode-languageserver';
import { blockStartOffsets, parseBlock, type HttpFileDiagnostic, type Range, type VariableReference } from '../../core/httpfile';
import type { ServiceContext } from './context';
import { fromParser, isSystemVariable, requestDiagnostics, undefinedVariables } from './diagnostics';
import { HttpDocument } from './document';

/** A block's own findings, with lines counted from the block's first line. */
interface BlockFindings {
  readonly parser: readonly Diagnostic[];
  readonly request: readonly Diagnostic[];
  readonly references: readonly VariableReference[];
  readonly variables: readonly string[];
  readonly name?: string;
  /** Line breaks in the block's text: the next block starts this many lines below this one's first. */
  readonly breaks: number;
}

/**
 * Blocks' findings of one document, by block text; what the last complete pass did not use is dropped.
 * The file's last block is kept apart: it also holds the line after the text's last break, so the same
 * text parses to one more line there than anywhere else.
 */
export class BlockFindingsCache {
  private entries = { inner: new Map<string, BlockFindings>(), last: new Map<string, BlockFindings>() };
  private used = { inner: new Map<string, BlockFindings>(), last: new Map<string, BlockFindings>() };
  private catalog: unknown;
  /** Blocks validated (not found here) since the cache was made: what an edit cost. */
  validated = 0;

  /** Findings hold contract checks: a new catalog (an OpenAPI overlay) makes every one stale. */
  useCatalog(operations: unknown): void {
    if (operations === this.catalog) return;
    this.catalog = operations;
    this.entries = { inner: new Map(), last: new Map() };
    this.used = { inner: new Map(), last: new Map() };
  }

  get(text: string, isLast: boolean): BlockFindings | undefined {
    const used = isLast ? this.used.last : this.used.inner;
    const found = used.get(text) ?? (isLast ? this.entries.last : this.entries.inner).get(text);
    if (found) used.set(text, found);
    return found;
  }

  set(text: string, isLast: boolean, findings: BlockFindings): void {
    this.validated++;
    (isLast ? this.used.last : this.used.inner).set(text, findings);
  }

  /** A pass saw every block: keep only what it used. */
  complete(): void {
    this.entries = this.used;
    this.used = { inner: new Map(), last: new Map() };
  }
}

/** How long a slice of validation may run before it yields (a completion waits at most about this). */
export const VALIDATION_SLICE_MS = 4;

/**
 * Validates `document`, yielding between slices of about VALIDATION_SLICE_MS; returns its diagnostics.
 * The order is the file's: every parse problem first, then each request's findings.
 */
export function* validationSteps(document: HttpDocument, context: ServiceContext, cache = new BlockFindingsCache()): Generator<void, Diagnostic[]> {
  cache.useCatalog(context.operations);
  const blocks: Array<{ findings: BlockFindings; first: number }> = [];
  const text = document.text;
  const starts = blockStartOffsets(text);
  let sliceStart = performance.now();
  let first = 0;
  for (let k = 0; k < starts.length; k++) {
    const isLast = k === starts.length - 1;
    const blockText = text.slice(starts[k], isLast ? text.length : starts[k + 1]);
    let findings = cache.get(blockText, isLast);
    if (!findings) {
      findings = findingsOf(document.uri, blockText, isLast, context);
      cache.set(blockText, isLast, findings);
    }
    blocks.push({ findings, first });
    first += findings.breaks;
    if (performance.now() - sliceStart > VALIDATION_SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
  }
  cache.complete();

  const parser: Diagnostic[] = [];
  const requests: Diagnostic[] = [];
  const fileVariables = new Set<string>();
  for (let k = 0; k < blocks.length; k++) {
    const variables = blocks[k]!.findings.variables;
    for (let v = 0; v < variables.length; v++) fileVariables.add(variables[v]!);
  }
  const namedSoFar = new Set<string>();
  // Indexed, and the lists (mostly empty) looked at only when they hold something: this runs once per
  // version over every block, unoptimised, where for-of steps an iterator per list.
  for (let k = 0; k < blocks.length; k++) {
    const { findings, first } = blocks[k]!;
    if (findings.parser.length > 0) for (const d of findings.parser) parser.push(moved(d, first));
    if (findings.request.length > 0) for (const d of findings.request) requests.push(moved(d, first));
    if (context.environmentVariables && findings.references.length > 0) {
      // Checked where the block's parse put them; only what is reported (rarely anything) is moved.
      const undefinedHere = undefinedVariables(findings.references, context.environmentVariables, fileVariables, namedSoFar);
      for (let d = 0; d < undefinedHere.length; d++) requests.push(moved(undefinedHere[d]!, first));
    }
    if (findings.name) namedSoFar.add(findings.name);
  }
  return [...parser, ...requests];
}

/** Runs validationSteps to the end at once (tests, and callers that need no yielding). */
export function validateDocument(document: HttpDocument, context: ServiceContext, cache?: BlockFindingsCache): Diagnostic[] {
  const steps = validationSteps(document, context, cache);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

const NONE: readonly never[] = Object.freeze([]);

/** A block's findings, its text validated as a document of its own (positions relative to its first line). */
function findingsOf(uri: string, text: string, isLast: boolean, context: ServiceContext): BlockFindings {
  const document = new HttpDocument(uri, 0, text);
  // The block's lines, cut once (the document keeps them for the checks that read lines).
  const lines = document.lines;
  const breaks = lines.length - 1;
  // A block other than the last ends with a line break: the empty line after it is the next block's.
  const diagnostics: HttpFileDiagnostic[] = [];
  const block = parseBlock(text, lines, 0, isLast ? breaks : breaks - 1, 0, diagnostics);
  const request = block.request;
  // Kept for every block of the file: most lists are empty, and share one array.
  const own = request ? requestDiagnostics(document, request, context) : NONE;
  return {
    parser: diagnostics.length === 0 ? NONE : diagnostics.map(fromParser),
    request: own.length === 0 ? NONE : own,
    references: request ? reportable(request.references) : NONE,
    variables: block.variables.length === 0 ? NONE : block.variables.map((v) => v.name),
    ...(request?.name ? { name: request.name } : {}),
    breaks,
  };
}

/**
 * The references undefinedVariables may report, whatever the file and environment hold later: not the
 * system variables ($...), which it never reports (most requests have one). Kept for every block of the
 * file: the fewer, the less each pass keeps alive.
 */
function reportable(references: readonly VariableReference[]): readonly VariableReference[] {
  let kept = 0;
  for (let r = 0; r < references.length; r++) if (!isSystemVariable(references[r]!.name)) kept++;
  if (kept === references.length) return kept === 0 ? NONE : references;
  if (kept === 0) return NONE;
  const out = new Array<VariableReference>(kept);
  for (let r = 0, k = 0; r < references.length; r++) if (!isSystemVariable(references[r]!.name)) out[k++] = references[r]!;
  return out;
}

function shifted(range: Range, lines: number): Range {
  return lines === 0 ? range : {
    start: { line: range.start.line + lines, character: range.start.character },
    end: { line: range.end.line + lines, character: range.end.character },
  };
}

function moved(d: Diagnostic, lines: number): Diagnostic {
  return lines === 0 ? d : { ...d, range: shifted(d.range, lines) };
}
