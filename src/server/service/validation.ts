// Diagnostics of a whole document, incrementally: a `.http` file is a list of request blocks, and what a
// block says about itself (parse problems, contract checks, body validation) depends only on its own
// text. So each block is validated as a document of its own (its text alone, lines counted from its
// first line) and its findings are kept with that text; a new version re-parses and re-validates only
// the blocks whose text changed (typing touches one) and moves the others to their new lines. The blocks
// are the server's kept blocks (BlockText; a text given whole is cut by blockStartOffsets), each parsed
// as a document of its own (the outline's kept parse when there is one), placed by
// the line breaks each one holds, so a pass over an unchanged 50 000-line file makes no string at all. Undefined variables depend on
// the rest of the file (file variables, the requests named before) and are recomputed each time from
// each block's kept summary — cheap.
// The work is a generator that yields every few milliseconds, so a server can answer a completion
// between two slices and drop a validation that a newer version made stale.
import type { Diagnostic } from 'vscode-languageserver';
import type { FileVariable, Range } from '../../core/httpfile';
import type { ServiceContext } from './context';
import { blockNames, fromParser, keptReferences, NO_REFERENCES, requestDiagnostics, undefinedVariables, type BlockNames, type KeptReferences } from './diagnostics';
import { fileVariablesOf, HttpDocument, type OwnBlock } from './document';

/** A block's own findings, with lines counted from the block's first line. */
interface BlockFindings {
  readonly parser: readonly Diagnostic[];
  readonly request: readonly Diagnostic[];
  readonly references: KeptReferences;
  readonly variables: readonly string[];
  /** The names its requests give, each where its request ends (every request's, not only the first's). */
  readonly names: BlockNames;
  /** Line breaks in the block's text: the next block starts this many lines below this one's first. */
  readonly breaks: number;
}

/** One pass's blocks in file order: their texts and findings. */
interface PassBlocks {
  readonly texts: string[];
  readonly findings: BlockFindings[];
  /** The blocks of the pass's version: more than texts.length while it runs, or when it stopped early. */
  readonly count: number;
}

/** A pass with no blocks, its own (a block kept by mistake before a begin stays in it). */
const noBlocks = (): PassBlocks => ({ texts: [], findings: [], count: 0 });

/**
 * Blocks' findings of one document, found by block text; what the last complete pass did not use is
 * dropped. A block is looked for where it was in the pass before: at the same index (nothing changed
 * above it) or as far from the end (nothing changed below it), which is every block but the edited ones
 * when a user types, and costs one comparison of two strings. Blocks found nowhere there (a block moved,
 * a pasted copy) are looked up by text once a pass has missed twice: making that map hashes every block's
 * text, which no pass needs while its blocks stay in place. Copies of one block within a version are
 * validated once each. The file's last block is only ever found as a last block: it also holds the line
 * after the text's last break, so the same text parses to one more line there than anywhere else.
 */
export class BlockFindingsCache {
  /** The last complete pass. */
  private previous = noBlocks();
  /** The pass that stopped furthest from its start (a newer version came first) since the last complete one. */
  private unfinished = noBlocks();
  private running = noBlocks();
  /** previous's and unfinished's blocks by text, made once a pass has missed twice. */
  private byText?: { readonly inner: Map<string, BlockFindings>; readonly last: Map<string, BlockFindings> };
  private missed = 0;
  private catalog: unknown;
  /** Blocks validated (not found here) since the cache was made: what an edit cost. */
  validated = 0;

  /** Findings hold contract checks: a new catalog (an OpenAPI overlay) makes every one stale. */
  useCatalog(operations: unknown): void {
    if (operations === this.catalog) return;
    this.catalog = operations;
    this.previous = noBlocks();
    this.unfinished = noBlocks();
    this.running = noBlocks();
  }

  /** A pass over `count` blocks starts; it calls find (then add when not found) for each block in order. */
  begin(count: number): void {
    if (this.running.texts.length > this.unfinished.texts.length) this.unfinished = this.running;
    this.running = { texts: [], findings: [], count };
    this.byText = undefined;
    this.missed = 0;
  }

  /** The findings of the running pass's next block, `text`, when a pass before had a block of this text. */
  find(text: string, isLast: boolean): BlockFindings | undefined {
    const found = this.placed(this.previous, text, isLast) ?? this.placed(this.unfinished, text, isLast) ?? this.moved(text, isLast);
    if (found) this.keep(text, found);
    return found;
  }

  /** The findings of the running pass's next block, validated. */
  add(text: string, findings: BlockFindings): void {
    this.validated++;
    this.keep(text, findings);
  }

  /** The running pass saw every block: keep only what it used. */
  complete(): void {
    this.previous = this.running;
    this.unfinished = noBlocks();
    this.running = noBlocks();
    this.byText = undefined;
  }

  private keep(text: string, findings: BlockFindings): void {
    this.running.texts.push(text);
    this.running.findings.push(findings);
  }

  /** Findings of `pass`'s block with this text at the running block's index, or as far from the end. */
  private placed(pass: PassBlocks, text: string, isLast: boolean): BlockFindings | undefined {
    const k = this.running.texts.length;
    return this.at(pass, k, text, isLast) ?? this.at(pass, k + pass.count - this.running.count, text, isLast);
  }

  private at(pass: PassBlocks, j: number, text: string, isLast: boolean): BlockFindings | undefined {
    if (j < 0 || j >= pass.texts.length || (j === pass.count - 1) !== isLast) return undefined;
    return pass.texts[j] === text ? pass.findings[j] : undefined;
  }

  private moved(text: string, isLast: boolean): BlockFindings | undefined {
    if (++this.missed < 2 || (this.previous.texts.length === 0 && this.unfinished.texts.length === 0)) return undefined;
    if (!this.byText) {
      const byText = { inner: new Map<string, BlockFindings>(), last: new Map<string, BlockFindings>() };
      for (const pass of [this.unfinished, this.previous]) {
        for (let j = 0; j < pass.texts.length; j++) (j === pass.count - 1 ? byText.last : byText.inner).set(pass.texts[j]!, pass.findings[j]!);
      }
      this.byText = byText;
    }
    return (isLast ? this.byText.last : this.byText.inner).get(text);
  }
}

/** How long a slice of validation may run before it yields (a completion waits at most about this). */
export const VALIDATION_SLICE_MS = 4;
/**
 * The first slice ends once its blocks reach this line, sooner than its time would end it: what an editor
 * shows of a file it opens is validated (and, for a file just opened, published) first.
 */
const FIRST_SLICE_LINES = 60;
/** A block this long (characters) may take long enough to validate that the clock is read after it. */
const LONG_BLOCK = 2048;

/**
 * What a pass yields between two slices: how far it got, and the findings of the blocks done so far as
 * diagnostics (asked only by a server that publishes a file progressively, the first time it opens).
 * Those hold each block's own findings; undefined variables, which depend on the whole file (a variable
 * may be defined below its use), come only with the complete diagnostics the pass returns.
 */
export interface ValidationProgress {
  readonly blocksDone: number;
  readonly blockCount: number;
  partial(): Diagnostic[];
}

/**
 * Validates `document`, yielding between slices of about VALIDATION_SLICE_MS; returns its diagnostics.
 * The order is the file's: every parse problem first, then each request's findings.
 */
export function* validationSteps(document: HttpDocument, context: ServiceContext, cache = new BlockFindingsCache()): Generator<ValidationProgress, Diagnostic[]> {
  cache.useCatalog(context.operations);
  // Each block's findings and first line, in two lists (a pass keeps them across collections).
  const found: BlockFindings[] = [];
  const firsts: number[] = [];
  // The server's documents are kept as blocks (an unchanged block is the same string version after
  // version, found in the cache by one pointer comparison); a text given whole is cut here.
  const texts = document.blockTexts.blocks;
  cache.begin(texts.length);
  let sliceStart = performance.now();
  let first = 0;
  for (let k = 0; k < texts.length; k++) {
    const isLast = k === texts.length - 1;
    const blockText = texts[k]!;
    let findings = cache.find(blockText, isLast);
    if (!findings) {
      findings = findingsOf(document.ownBlock(k), document.uri, blockText, context);
      cache.add(blockText, findings);
    }
    found.push(findings);
    firsts.push(first);
    first += findings.breaks;
    // The clock is read every 8 blocks, and after a long one: a file has thousands of blocks, and
    // performance.now() is not free.
    const firstSliceDone = k + 1 < texts.length && first >= FIRST_SLICE_LINES && first - findings.breaks < FIRST_SLICE_LINES;
    if (firstSliceDone || (((k & 7) === 7 || blockText.length > LONG_BLOCK) && performance.now() - sliceStart > VALIDATION_SLICE_MS)) {
      const blocksDone = k + 1;
      yield { blocksDone, blockCount: texts.length, partial: () => assembled(found, firsts, blocksDone, undefined) };
      sliceStart = performance.now();
    }
  }
  cache.complete();
  return assembled(found, firsts, found.length, context);
}

/**
 * The diagnostics of the first `count` blocks of `found` (placed at `firsts`): every parse problem first,
 * then each request's findings and (with `context`: the whole file's blocks) its undefined variables.
 */
function assembled(found: readonly BlockFindings[], firsts: readonly number[], count: number, context: ServiceContext | undefined): Diagnostic[] {
  const parser: Diagnostic[] = [];
  const requests: Diagnostic[] = [];
  const environment = context?.environmentVariables;
  const fileVariables = new Set<string>();
  if (environment) {
    for (let k = 0; k < count; k++) {
      const variables = found[k]!.variables;
      for (let v = 0; v < variables.length; v++) fileVariables.add(variables[v]!);
    }
  }
  const namedSoFar = new Set<string>();
  // Indexed, and the lists (mostly empty) looked at only when they hold something: this runs once per
  // version over every block, unoptimised, where for-of steps an iterator per list.
  for (let k = 0; k < count; k++) {
    const findings = found[k]!;
    const first = firsts[k]!;
    if (findings.parser.length > 0) for (const d of findings.parser) parser.push(moved(d, first));
    if (findings.request.length > 0) for (const d of findings.request) requests.push(moved(d, first));
    if (environment && findings.references.names.length > 0) {
      undefinedVariables(findings.references, first, environment, fileVariables, namedSoFar, findings.names, requests);
    }
    const names = findings.names.names;
    for (let n = 0; n < names.length; n++) namedSoFar.add(names[n]!);
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
function findingsOf({ document: parsedFrom, block, blocks, diagnostics, breaks }: OwnBlock, uri: string, text: string, context: ServiceContext): BlockFindings {
  // The block's own document: the one its parse was made from, or (a parse kept from the outline) made again.
  const document = parsedFrom ?? new HttpDocument(uri, 0, text);
  const request = block.request;
  // A `###` block may hold more requests (a request line without ###, as httpYac reads it): each is checked.
  const requests = blocks.length === 1 ? (request ? [request] : []) : blocks.flatMap((b) => (b.request ? [b.request] : []));
  // Kept for every block of the file: most lists are empty, and share one array.
  const own = requests.length === 1 ? requestDiagnostics(document, requests[0]!, context) : requests.flatMap((r) => requestDiagnostics(document, r, context));
  return {
    parser: diagnostics.length === 0 ? NONE : diagnostics.map(fromParser),
    request: own.length === 0 ? NONE : own,
    references: requests.length === 0 ? NO_REFERENCES : keptReferences(requests.length === 1 ? requests[0]!.references : requests.flatMap((r) => r.references)),
    variables: variableNames(fileVariablesOf({ block, blocks })),
    names: blockNames(requests),
    breaks,
  };
}

/** The names of a block's file variables, kept for every block: most have none, and share one array. */
function variableNames(variables: readonly FileVariable[]): readonly string[] {
  return variables.length === 0 ? NONE : variables.map((v) => v.name);
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
