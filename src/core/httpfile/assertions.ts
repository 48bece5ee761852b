// `??` assertion lines (httpYac's declarative syntax) plus this product's `business` and `rows` subjects.
// This module only reads the line; `src/core/run/assertions.ts` evaluates it against a response.
import type { AssertionNode, HttpFileDiagnostic } from './model';
import { lineRange, range } from './lines';

export const ASSERTION_LINE = /^\s*\?\?/;

export interface AssertionSubject {
  readonly name: string;
  readonly argument: 'none' | 'required' | 'optional';
  readonly summary: string;
  readonly example: string;
}

/** Every subject this product checks, in the order completion offers them. */
export const ASSERTION_SUBJECTS: readonly AssertionSubject[] = [
  { name: 'status', argument: 'none', summary: 'the HTTP status code', example: '?? status == 200' },
  { name: 'header', argument: 'required', summary: 'a response header, by name (case-insensitive)', example: '?? header content-type includes json' },
  { name: 'body', argument: 'optional', summary: 'the response body, or the value at a JSON path in it ($.a.b[0] or a.b[0])', example: '?? body $.total >= 1' },
  { name: 'duration', argument: 'none', summary: 'the time to the whole response, in milliseconds', example: '?? duration < 2000' },
  { name: 'business', argument: 'required', summary: "the service's own error convention inside the answer: `ok` (no business error) or `code` (its error code)", example: '?? business code == 26' },
  { name: 'rows', argument: 'none', summary: 'the rows the response held (all pages after a walk)', example: '?? rows >= 1' },
];

/** httpYac subjects that need its script engine: kept, reported as not checked. */
export const SCRIPT_SUBJECTS = new Set(['js', 'xpath']);

export interface AssertionPredicate {
  readonly names: readonly string[];
  readonly takesValue: boolean;
  readonly summary: string;
}

export const ASSERTION_PREDICATES: readonly AssertionPredicate[] = [
  { names: ['==', '===', 'equals'], takesValue: true, summary: 'equal (numbers compared as numbers, JSON values as JSON)' },
  { names: ['!=', '!==', 'not equals'], takesValue: true, summary: 'not equal' },
  { names: ['<'], takesValue: true, summary: 'less than (numbers)' },
  { names: ['<='], takesValue: true, summary: 'at most (numbers)' },
  { names: ['>'], takesValue: true, summary: 'greater than (numbers)' },
  { names: ['>='], takesValue: true, summary: 'at least (numbers)' },
  { names: ['includes', 'contains'], takesValue: true, summary: 'the text contains the value, or the array holds it' },
  { names: ['startsWith'], takesValue: true, summary: 'the text starts with the value' },
  { names: ['endsWith'], takesValue: true, summary: 'the text ends with the value' },
  { names: ['exists', 'isTrue'], takesValue: false, summary: 'present and truthy' },
  { names: ['isFalse'], takesValue: false, summary: 'absent or falsy' },
  { names: ['isArray'], takesValue: false, summary: 'a JSON array' },
  { names: ['isNumber'], takesValue: false, summary: 'a JSON number' },
  { names: ['isString'], takesValue: false, summary: 'a JSON string' },
  { names: ['isBoolean'], takesValue: false, summary: 'true or false' },
  { names: ['matches'], takesValue: true, summary: 'the text matches the regular expression' },
  { names: ['sha256'], takesValue: true, summary: "the text's SHA-256 digest is the value (base64 or hex)" },
  { names: ['sha512'], takesValue: true, summary: "the text's SHA-512 digest is the value (base64 or hex)" },
  { names: ['md5'], takesValue: true, summary: "the text's MD5 digest is the value (base64 or hex)" },
];

export function predicateNamed(name: string): AssertionPredicate | undefined {
  return ASSERTION_PREDICATES.find((p) => p.names.includes(name));
}

export function subjectNamed(name: string): AssertionSubject | undefined {
  return ASSERTION_SUBJECTS.find((s) => s.name === name);
}

interface Token { readonly text: string; readonly start: number }

function tokens(text: string, from: number): Token[] {
  const out: Token[] = [];
  const re = /\S+/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ text: m[0], start: m.index });
  return out;
}

/**
 * Reads one `??` line. Returns the assertion (possibly incomplete) and pushes a `malformed-assertion`
 * diagnostic for anything it cannot check; `undefined` for `?? js …` / `?? xpath …` (the caller keeps
 * those verbatim).
 */
export function parseAssertionLine(line: number, text: string, diagnostics: HttpFileDiagnostic[]): AssertionNode | undefined {
  const marks = text.indexOf('??');
  const all = tokens(text, marks + 2);
  const subjectToken = all[0];
  const problem = (message: string): void => {
    diagnostics.push({ code: 'malformed-assertion', message, range: lineRange(line, text), severity: 'error' });
  };
  if (!subjectToken) {
    problem(`An assertion names what it checks: ${ASSERTION_SUBJECTS.map((s) => s.name).join(', ')} (e.g. '?? status == 200').`);
    return { text: '', subject: '', argument: '', predicate: '', expected: '', range: lineRange(line, text), subjectRange: range(line, marks + 2, line, marks + 2) };
  }
  if (SCRIPT_SUBJECTS.has(subjectToken.text)) return undefined;
  const node = assertionNode(line, text, marks, subjectToken, all.slice(1));
  checkAssertion(node, problem);
  return node;
}

/** The predicate among `rest`: the first token (or `not equals` pair) that names one; -1 when none does. */
function predicateAt(rest: readonly Token[]): { readonly at: number; readonly predicate: string; readonly end: number } {
  const at = rest.findIndex((t, k) => predicateNamed(t.text) !== undefined || (t.text === 'not' && rest[k + 1]?.text === 'equals'));
  if (at === -1) return { at: rest.length, predicate: '', end: -1 };
  const two = rest[at]?.text === 'not' && rest[at + 1]?.text === 'equals';
  return { at, predicate: two ? 'not equals' : rest[at]?.text ?? '', end: two ? at + 2 : at + 1 };
}

/** The node of a `??` line: before the predicate the argument, after it the value. */
function assertionNode(line: number, text: string, marks: number, subjectToken: Token, rest: readonly Token[]): AssertionNode {
  const { at, predicate, end } = predicateAt(rest);
  const argumentTokens = rest.slice(0, at);
  const expectedTokens = end === -1 ? [] : rest.slice(end);
  const lastArgument = argumentTokens.at(-1);
  const argument = lastArgument ? text.slice(argumentTokens[0]?.start, lastArgument.start + lastArgument.text.length) : '';
  const expectedStart = expectedTokens[0]?.start;
  const expected = expectedStart === undefined ? '' : text.slice(expectedStart).trimEnd();
  const predicateStart = rest[at]?.start;
  return {
    text: text.slice(marks + 2).trim(),
    subject: subjectToken.text,
    argument,
    predicate,
    expected,
    range: lineRange(line, text),
    subjectRange: range(line, subjectToken.start, line, subjectToken.start + subjectToken.text.length),
    ...(predicate && predicateStart !== undefined ? { predicateRange: range(line, predicateStart, line, predicateStart + predicate.length) } : {}),
    ...(expectedStart === undefined ? {} : { expectedRange: range(line, expectedStart, line, expectedStart + expected.length) }),
  };
}

/** What makes a `??` line uncheckable, each said through `problem`. */
function checkAssertion(node: AssertionNode, problem: (message: string) => void): void {
  const subject = subjectNamed(node.subject);
  if (!subject) {
    problem(`Unknown assertion subject '${node.subject}': use ${ASSERTION_SUBJECTS.map((s) => s.name).join(', ')}.`);
    return;
  }
  const { argument, predicate, expected } = node;
  if (subject.argument === 'none' && argument) problem(`'${subject.name}' takes no argument before the comparison, found '${argument}'.`);
  if (subject.argument === 'required' && !argument) problem(`'${subject.name}' needs ${subject.name === 'header' ? 'a header name' : "'ok' or 'code'"} (e.g. '${subject.example}').`);
  if (subject.name === 'business' && !checkBusiness(argument, predicate, problem)) return;
  if (!predicate) {
    problem(`The assertion needs a comparison: ${ASSERTION_PREDICATES.map((x) => x.names[0]).join(', ')}.`);
    return;
  }
  const known = predicateNamed(predicate);
  if (known?.takesValue && !expected) problem(`'${predicate}' needs a value to compare with.`);
  if (known && !known.takesValue && expected) problem(`'${predicate}' takes no value, found '${expected}'.`);
}

/** `?? business ok` / `?? business code == N`; false when nothing more is to be checked (not `code`). */
function checkBusiness(argument: string, predicate: string, problem: (message: string) => void): boolean {
  if (argument && argument !== 'ok' && argument !== 'code') problem(`'business' checks 'ok' or 'code', not '${argument}'.`);
  if (argument === 'ok' && predicate) problem("'?? business ok' takes no comparison.");
  if (argument === 'code' && !predicate) problem("'?? business code' needs a comparison (e.g. '?? business code == 26').");
  return argument === 'code';
}
