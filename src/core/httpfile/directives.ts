// The `# @key value` lines of a request (REST Client, httpYac, the JetBrains HTTP Client and this product's
// own): which ones API Workbench acts on, and the words for each one it does not. The rule: a directive
// that changes what is sent is acted on, or said where it is written — never dropped without a word —
// and one that would make a request be sent other than as its author meant (sent once where it was to be
// repeated, a directive of this product written where it is not read) stops that request (an error:
// run/notRun.ts). The language server shows these diagnostics; `apiwb run` prints them before it sends.
import type { Directive, HttpFile, HttpFileDiagnostic, HttpTool, RequestBlock } from './model';
import { lineRange } from './lines';
import { DIRECTIVE } from './foreign';

/** read: acted on; skip: the request is not sent (said); refuse: not run (an error); warn / note: sent, with a warning / information. */
type Fate = 'read' | 'skip' | 'refuse' | 'warn' | 'note';

interface DirectiveRule {
  readonly fate: Fate;
  readonly tool: HttpTool | 'API Workbench';
  /** What it does here, after "@key (tool): ". */
  readonly words?: string;
  /** Offered by completion, with what it does (the tool's twin of a key is not offered). */
  readonly offered?: string;
  /** The request's redirects are not followed: the 3xx is its response. */
  readonly noRedirects?: true;
}

/** THE table of directives: every fact about a key (its fate, whose it is, its words, completion, effect) on its one line. */
const RULES: Readonly<Record<string, DirectiveRule>> = {
  name: { fate: 'read', tool: 'API Workbench', offered: 'names the request, so later requests can use {{name.response.body.$.field}}' },
  paging: { fate: 'read', tool: 'API Workbench', offered: 'overrides the paging style: page-number, page-headers, offset-remaining, batch-cursor, export-ordinal, stateful-extraction, generic, none' },
  folder: { fate: 'read', tool: 'API Workbench' },
  'no-redirect': { fate: 'read', tool: 'JetBrains HTTP Client', offered: 'do not follow redirects', noRedirects: true },
  noRedirect: { fate: 'read', tool: 'httpYac', noRedirects: true },
  disabled: { fate: 'skip', tool: 'httpYac', words: 'this request is not sent, neither when the file is run nor by Send (skipped)', offered: 'not sent, neither when the file is run nor by Send' },
  loop: { fate: 'refuse', tool: 'httpYac', words: 'sending a request repeatedly is not supported; rather than send it once, this request is not run' },
  ref: { fate: 'warn', tool: 'httpYac', words: 'the named request is not sent first; requests are sent in file order, so its response is there only when it is above this one' },
  forceRef: { fate: 'warn', tool: 'httpYac', words: 'the named request is not sent first; requests are sent in file order, so its response is there only when it is above this one' },
  import: { fate: 'warn', tool: 'httpYac', words: "the other file's variables and requests are not loaded; a request that uses them is not run for want of them" },
  note: { fate: 'warn', tool: 'REST Client', words: 'no confirmation is asked before this request is sent' },
};

/** The directives completion offers: key and what it does (the table's `offered`). */
export const READ_DIRECTIVES: ReadonlyArray<readonly [string, string]> = Object.entries(RULES)
  .flatMap(([key, rule]) => (rule.offered === undefined ? [] : [[key, rule.offered] as const]));

/** The rule of a key written exactly so; undefined for a key no tool here is known to use. */
function ruleOf(key: string): DirectiveRule | undefined {
  return Object.hasOwn(RULES, key) ? RULES[key] : undefined;
}

const DISABLED_FALSE: DirectiveRule = { fate: 'read', tool: 'httpYac' };
const DISABLED_EXPRESSION: DirectiveRule = {
  fate: 'refuse',
  tool: 'httpYac',
  words: 'its value is a script expression that decides whether the request is sent; API Workbench does not evaluate it (only no value, true or false), so rather than skip or send it by a guess, this request is not run',
};

/**
 * The rule of a directive as written, value and all. httpYac's `# @disabled` takes an optional value and
 * skips the request only when that value is true: no value or `true` skips it, `false` sends it, and any
 * other value (an expression httpYac evaluates) is not run here — never a silent skip or a silent send.
 */
function ruleOfDirective(directive: Pick<Directive, 'key' | 'value'>): DirectiveRule | undefined {
  if (directive.key !== 'disabled') return ruleOf(directive.key);
  const value = directive.value.trim();
  if (value === '' || value === 'true') return RULES['disabled'];
  return value === 'false' ? DISABLED_FALSE : DISABLED_EXPRESSION;
}

/** A key this product acts on (or skips / refuses), written in another case: `@Paging` for `@paging`. */
function recasedOwnKey(key: string): string | undefined {
  const lower = key.toLowerCase();
  return Object.keys(RULES).find((k) => k !== key && k.toLowerCase() === lower && RULES[k]!.fate !== 'warn' && RULES[k]!.fate !== 'note');
}

/** The diagnostic of a directive above a request line (none for one the product reads as written). */
export function reportDirective(directive: Directive, diagnostics: HttpFileDiagnostic[]): void {
  const key = directive.key;
  const rule = ruleOfDirective(directive);
  if (rule?.fate === 'read') return;
  const recased = rule ? undefined : recasedOwnKey(key);
  if (recased !== undefined) {
    diagnostics.push({ code: 'directive', message: `@${key} is not read: directives are read as written, in this case: @${recased}. This request is not run.`, range: directive.range, severity: 'error' });
    return;
  }
  if (!rule) {
    diagnostics.push({ code: 'directive', message: `@${key}: not a directive API Workbench acts on; kept as written.`, range: directive.range, severity: 'information' });
    return;
  }
  const severity = rule.fate === 'refuse' ? 'error' : rule.fate === 'warn' ? 'warning' : 'information';
  diagnostics.push({ code: 'directive', message: `@${key} (${rule.tool}): ${rule.words ?? ''}.`, range: directive.range, severity });
}

/**
 * A comment line after the request line that is a directive the product acts on (`# @paging …` among the
 * headers): not read there, so the request is not run rather than sent without it. Another `# @…` there
 * is a comment, as every tool reads it.
 */
export function reportMisplacedDirective(line: number, text: string, diagnostics: HttpFileDiagnostic[]): void {
  const m = DIRECTIVE.exec(text);
  if (!m) return;
  const key = m[3] ?? '';
  const rule = ruleOf(key) ?? ruleOf(recasedOwnKey(key) ?? '');
  if (!rule || rule.fate === 'warn' || rule.fate === 'note') return;
  diagnostics.push({
    code: 'directive',
    message: `@${key} after the request line is not read: directives are read above the request line only. This request is not run; move the line above it.`,
    range: lineRange(line, text),
    severity: 'error',
  });
}

/** The `# @disabled` (or `# @disabled true`) directive of a block, when it has one: the request is not sent (a run skips it, every other sender refuses it: directiveRefusal). */
export function disablingDirective(directives: readonly Directive[]): Directive | undefined {
  return directives.find((d) => ruleOfDirective(d)?.fate === 'skip');
}

/** Whether a request with these directives (as resolved: key → value) follows redirects. */
export function followsRedirects(directives: Readonly<Record<string, string>>): boolean {
  return !Object.keys(directives).some((key) => ruleOf(key)?.noRedirects === true);
}

/** A disabled request asked for by itself (a Send): why nothing goes, and how to send it. */
const DISABLED_NOT_SENT = 'this request is disabled, so it is not sent; remove the line, or write # @disabled false, to send it';

/**
 * Why a request of `file` is not sent for a directive of its block, in the line's words, for every sender
 * of one request (the editor's Send and its CodeLens, compare, generate): `# @disabled` (or `true`) — the
 * request is disabled, so not sent; `# @loop`, a `@disabled` expression, a directive written where it is
 * not read — the error's words. `apiwb run` sets both aside before (cli/notRun.ts: the skip said, the
 * error as not run), by the same rule (ruleOfDirective).
 */
export function directiveRefusal(file: HttpFile, block: RequestBlock): string | undefined {
  const disabled = disablingDirective(block.directives);
  if (disabled) return `line ${disabled.range.start.line + 1}: @${disabled.key} (${RULES['disabled']!.tool}): ${DISABLED_NOT_SENT}`;
  const d = file.diagnostics.find((x) => x.code === 'directive' && x.severity === 'error' && x.range.start.line >= block.firstLine && x.range.start.line <= block.lastLine);
  return d && `line ${d.range.start.line + 1}: ${d.message}`;
}

