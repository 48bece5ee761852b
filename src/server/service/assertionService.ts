// Completion and hover for `??` assertion lines. The vocabulary (subjects, comparisons, what each
// means) lives in core/httpfile/assertions.ts; diagnostics come from the parser (malformed-assertion).
import type { CompletionItem, Hover, Position } from 'vscode-languageserver';
import {
  ASSERTION_PREDICATES, ASSERTION_SUBJECTS, subjectNamed, predicateNamed,
} from '../../core/httpfile/assertions';
import { containsPosition, type HttpRequestNode } from '../../core/httpfile';
import { CompletionItemKind } from './lspConstants';

/** Response headers worth asserting on, offered after `?? header `. */
const RESPONSE_HEADERS = ['content-type', 'content-length', 'location', 'etag', 'cache-control', 'x-total-count', 'link', 'retry-after'];

/** Items for a `??` line, or undefined when the line is not one (the caller goes on with its zones). */
export function assertionCompletions(before: string, position: Position): CompletionItem[] | undefined {
  const edit = (start: number, newText: string): CompletionItem['textEdit'] =>
    ({ range: { start: { line: position.line, character: start }, end: position }, newText });
  const opening = /^(\s*)(\?{1,2})\s*(\w*)$/.exec(before);
  if (opening) {
    // `?`, `??`, `?? sta`: the subjects, written from the marks on.
    const start = opening[1]?.length ?? 0;
    return ASSERTION_SUBJECTS.map((s, index) => ({
      label: s.name,
      kind: CompletionItemKind.Keyword,
      detail: s.example,
      documentation: `Checks ${s.summary}.`,
      sortText: String(index).padStart(2, '0'),
      filterText: `?? ${s.name}`,
      textEdit: edit(start, `?? ${s.name} `),
    }));
  }
  const line = /^\s*\?\?\s+(\S+)\s+(.*)$/.exec(before);
  if (!line) return undefined;
  const subject = subjectNamed(line[1] ?? '');
  if (!subject) return [];
  const rest = line[2] ?? '';
  const words = rest.split(/\s+/);
  const typing = words.at(-1) ?? '';
  const start = position.character - typing.length;
  const complete = words.slice(0, -1).filter(Boolean);
  const predicates = (): CompletionItem[] => ASSERTION_PREDICATES.map((p, index) => ({
    label: p.names[0] ?? '',
    kind: CompletionItemKind.Operator,
    detail: p.takesValue ? 'compares with the value after it' : 'takes no value',
    documentation: p.summary,
    sortText: String(index).padStart(2, '0'),
    textEdit: edit(start, `${p.names[0] ?? ''}${p.takesValue ? ' ' : ''}`),
  }));
  if (complete.some((w) => predicateNamed(w))) return [];
  if (subject.name === 'business') {
    if (complete.length === 0) {
      return [
        { label: 'ok', kind: CompletionItemKind.EnumMember, documentation: 'the answer holds no business error', textEdit: edit(start, 'ok') },
        { label: 'code', kind: CompletionItemKind.EnumMember, documentation: "the business error's code, compared (e.g. == 26)", textEdit: edit(start, 'code ') },
      ];
    }
    return complete[0] === 'code' ? predicates() : [];
  }
  if (subject.name === 'header' && complete.length === 0) {
    return RESPONSE_HEADERS.map((h) => ({ label: h, kind: CompletionItemKind.Field, textEdit: edit(start, `${h} `) }));
  }
  return predicates();
}

/** What an assertion line checks, for hover; null when the position is on no `??` line of `request` (the request of the block under it). */
export function assertionHover(request: HttpRequestNode | undefined, position: Position): Hover | null {
  const assertion = request?.assertions.find((a) => containsPosition(a.range, position));
  if (!assertion) return null;
  const subject = subjectNamed(assertion.subject);
  const predicate = predicateNamed(assertion.predicate);
  const parts: string[] = [];
  if (subject) {
    const what = subject.name === 'business' && assertion.argument === 'ok' ? 'that the answer holds no business error'
      : subject.name === 'business' ? "the business error's code"
        : subject.argument !== 'none' && assertion.argument ? `${subject.summary}: \`${assertion.argument}\`` : subject.summary;
    parts.push(`**?? ${subject.name}** checks ${what}.`);
  } else {
    parts.push(`\`${assertion.subject}\` is not a subject API Workbench checks: ${ASSERTION_SUBJECTS.map((s) => `\`${s.name}\``).join(', ')}.`);
  }
  if (predicate) parts.push(`\`${assertion.predicate}\`: ${predicate.summary}${assertion.expected ? ` — \`${assertion.expected}\`` : ''}.`);
  parts.push('Checked after the response arrives (declarative, no script runs); a failure fails the run.');
  return { contents: { kind: 'markdown', value: parts.join('\n\n') }, range: assertion.range };
}
