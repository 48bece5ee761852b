// Diagnostics of a whole document, incrementally: a `.http` file is a list of request blocks, and what a
// block says about itself (parse problems, contract checks, body validation) depends only on its own
// text. So each block's diagnostics are kept by its text, relative to its first line; a new version
// re-parses and re-validates only the blocks whose text changed (typing touches one) and moves the
// others to their new lines. Undefined variables depend on the rest of the file (file variables, the
// requests named before) and are recomputed each time from each block's kept summary — cheap.
// The work is a generator that yields every few milliseconds, so a server can answer a completion
// between two slices and drop a validation that a newer version made stale.
import type { Diagnostic } from 'vscode-languageserver';
import type { Range, VariableReference } from '../../core/httpfile';
import type { ServiceContext } from './context';
import { fromParser, requestDiagnostics, undefinedVariables } from './diagnostics';
import type { HttpDocument } from './document';

/** A block's own findings, with lines counted from the block's first line. */
interface BlockFindings {
  readonly parser: readonly Diagnostic[];
  readonly request: readonly Diagnostic[];
  readonly references: readonly VariableReference[];
  readonly variables: readonly string[];
  readonly name?: string;
}

/** Blocks' findings of one document, by block text; what the last complete pass did not use is dropped. */
export class BlockFindingsCache {
  private entries = new Map<string, BlockFindings>();
  private used = new Map<string, BlockFindings>();
  private catalog: unknown;

  /** Findings hold contract checks: a new catalog (an OpenAPI overlay) makes every one stale. */
  useCatalog(operations: unknown): void {
    if (operations === this.catalog) return;
    this.catalog = operations;
    this.entries = new Map();
    this.used = new Map();
  }

  get(key: string): BlockFindings | undefined {
    const found = this.used.get(key) ?? this.entries.get(key);
    if (found) this.used.set(key, found);
    return found;
  }

  set(key: string, findings: BlockFindings): void {
    this.used.set(key, findings);
  }

  /** A pass saw every block: keep only what it used. */
  complete(): void {
    this.entries = this.used;
    this.used = new Map();
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
  let sliceStart = performance.now();
  for (const [first, last] of document.blockBounds()) {
    // Line 0 opens the file's first block with or without a separator: part of the block's identity.
    const key = `${first === 0 ? '0' : '1'}${document.linesText(first, last)}`;
    let findings = cache.get(key);
    if (!findings) {
      findings = findingsOf(document, first, last, context);
      cache.set(key, findings);
    }
    blocks.push({ findings, first });
    if (performance.now() - sliceStart > VALIDATION_SLICE_MS) {
      yield;
      sliceStart = performance.now();
    }
  }
  cache.complete();

  const parser: Diagnostic[] = [];
  const requests: Diagnostic[] = [];
  const fileVariables = new Set(blocks.flatMap((b) => b.findings.variables));
  const namedSoFar = new Set<string>();
  for (const { findings, first } of blocks) {
    for (const d of findings.parser) parser.push(moved(d, first));
    for (const d of findings.request) requests.push(moved(d, first));
    if (context.environmentVariables && findings.references.length > 0) {
      const references = findings.references.map((r) => ({ ...r, range: shifted(r.range, first), nameRange: shifted(r.nameRange, first) }));
      requests.push(...undefinedVariables(references, context.environmentVariables, fileVariables, namedSoFar));
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

function findingsOf(document: HttpDocument, first: number, last: number, context: ServiceContext): BlockFindings {
  const { block, diagnostics } = document.parsedBlock(first, last);
  const request = block.request;
  const back = -first;
  return {
    parser: diagnostics.map((d) => moved(fromParser(d), back)),
    request: request ? requestDiagnostics(document, request, context).map((d) => moved(d, back)) : [],
    references: request ? request.references.map((r) => ({ ...r, range: shifted(r.range, back), nameRange: shifted(r.nameRange, back) })) : [],
    variables: block.variables.map((v) => v.name),
    ...(request?.name ? { name: request.name } : {}),
  };
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
