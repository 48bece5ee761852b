// The `# @key value` lines of a request (REST Client, httpYac, the JetBrains HTTP Client and this product's
// own): which ones API Workbench acts on, and the words for each one it does not. The rule: a directive
// that changes what is sent is acted on, or said where it is written — never dropped without a word —
// and one that would make a request be sent other than as its author meant (sent once where it was to be
// repeated, a directive of this product written where it is not read) stops that request (an error:
// run/notRun.ts). The language server shows these diagnostics; `apiwb run` prints them before it sends.
import type { Directive, HttpFileDiagnostic, HttpTool } from './model';

/** read: acted on; skip: the request is not sent (said); refuse: not run (an error); warn / note: sent, with a warning / information. */
type Fate = 'read' | 'skip' | 'refuse' | 'warn' | 'note';

interface DirectiveRule {
  readonly fate: Fate;
  readonly tool: HttpTool | 'API Workbench';
  /** What it does here, after "@key (tool): ". */
  readonly words?: string;
}

const RULES: Readonly<Record<string, DirectiveRule>> = {
  name: { fate: 'read', tool: 'API Workbench' },
  paging: { fate: 'read', tool: 'API Workbench' },
  folder: { fate: 'read', tool: 'API Workbench' },
  'no-redirect': { fate: 'read', tool: 'JetBrains HTTP Client' },
  noRedirect: { fate: 'read', tool: 'httpYac' },
  disabled: { fate: 'skip', tool: 'httpYac', words: 'this request is not sent when the file is run (skipped)' },
  loop: { fate: 'refuse', tool: 'httpYac', words: 'sending a request repeatedly is not supported; rather than send it once, this request is not run' },
  ref: { fate: 'warn', tool: 'httpYac', words: 'the named request is not sent first; requests are sent in file order, so its response is there only when it is above this one' },
  forceRef: { fate: 'warn', tool: 'httpYac', words: 'the named request is not sent first; requests are sent in file order, so its response is there only when it is above this one' },
  import: { fate: 'warn', tool: 'httpYac', words: "the other file's variables and requests are not loaded; a request that uses them is not run for want of them" },
  note: { fate: 'warn', tool: 'REST Client', words: 'no confirmation is asked before this request is sent' },
};

/** The directives the product acts on, for completion: key and what it does. */
export const READ_DIRECTIVES: ReadonlyArray<readonly [string, string]> = [
  ['name', 'names the request, so later requests can use {{name.response.body.$.field}}'],
  ['paging', 'overrides the paging style: page-number, page-headers, offset-remaining, batch-cursor, export-ordinal, stateful-extraction, generic, none'],
  ['no-redirect', 'do not follow redirects'],
  ['disabled', 'not sent when the file is run'],
];

/** The rule of a key written exactly so; undefined for a key no tool here is known to use. */
function ruleOf(key: string): DirectiveRule | undefined {
  return Object.hasOwn(RULES, key) ? RULES[key] : undefined;
}

/** The diagnostic of a directive above a request line (none for one the product reads as written). */
export function reportDirective(directive: Directive, diagnostics: HttpFileDiagnostic[]): void {
  const key = directive.key;
  const rule = ruleOf(key);
  if (rule?.fate === 'read') return;
  if (!rule) {
    diagnostics.push({ code: 'directive', message: `@${key}: not a directive API Workbench acts on; kept as written.`, range: directive.range, severity: 'information' });
    return;
  }
  const severity = rule.fate === 'refuse' ? 'error' : rule.fate === 'warn' ? 'warning' : 'information';
  diagnostics.push({ code: 'directive', message: `@${key} (${rule.tool}): ${rule.words ?? ''}.`, range: directive.range, severity });
}

/** The `# @disabled` directive of a block, when it has one: the request is not sent when the file is run. */
export function disablingDirective(directives: readonly Directive[]): Directive | undefined {
  return directives.find((d) => ruleOf(d.key)?.fate === 'skip');
}

/** Whether a request with these directives (as resolved: key → value) follows redirects. */
export function followsRedirects(directives: Readonly<Record<string, string>>): boolean {
  return !Object.hasOwn(directives, 'no-redirect') && !Object.hasOwn(directives, 'noRedirect');
}
