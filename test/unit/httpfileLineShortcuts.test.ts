// Shortcuts of the `.http` parser, each run here against the rule it shortcuts: the parser skips its
// per-line patterns for a line whose first character after spaces and tabs (leadingCode) is none of the
// characters a pattern can start with (the regexes); isBlank answers `trim() === ''` without making the
// trimmed string (String.prototype.trim); splitLines cuts a text without \r with indexOf (the
// character loop).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isBlank, leadingCode, splitAtAnyBreak, splitAtNewlines, splitLines } from '../../src/core/httpfile/lines';
import { endsWithDigit, VERSION_AT_END } from '../../src/core/httpfile/requestLine';
import { FILE_VARIABLE, FILE_VARIABLE_LEADS } from '../../src/core/httpfile/parser';
import { BODY_END_LEADS, COMMENT_LEADS, HEADERS_END, HEADERS_END_LEADS } from '../../src/core/httpfile/request';
import { ASSERTION_LINE } from '../../src/core/httpfile/assertions';
import {
  BLOCK_COMMENT_OPEN, COMMENT, CURL, DIRECTIVE, GRAPHQL_FRAGMENT, HANDLER_FILE, HANDLER_SCRIPT, JETBRAINS_IMPORT, JETBRAINS_RUN,
  KEPT_BEFORE_REQUEST_LEADS, OUTPUT_REDIRECT, PRE_REQUEST_FILE, PRE_REQUEST_SCRIPT, PROTO_IMPORT, RECORDED_RESPONSE, RESPONSE_REFERENCE,
  SCRIPT_OPEN, XPATH_NAMESPACE,
} from '../../src/core/httpfile/foreign';

// Each per-line pattern with the characters the parser requires a line to start with before trying it
// (request.ts: the end of the headers, comments, the end of the body; parser.ts: file variables;
// foreign.ts: keptBeforeRequest).
const PATTERN_LEADS: ReadonlyArray<readonly [RegExp, ReadonlySet<number>]> = [
  [HEADERS_END, HEADERS_END_LEADS], [HANDLER_SCRIPT, HEADERS_END_LEADS], [HANDLER_FILE, HEADERS_END_LEADS], [OUTPUT_REDIRECT, HEADERS_END_LEADS], [ASSERTION_LINE, HEADERS_END_LEADS],
  [COMMENT, COMMENT_LEADS], [DIRECTIVE, COMMENT_LEADS],
  [HANDLER_SCRIPT, BODY_END_LEADS], [HANDLER_FILE, BODY_END_LEADS], [OUTPUT_REDIRECT, BODY_END_LEADS], [RESPONSE_REFERENCE, BODY_END_LEADS], [ASSERTION_LINE, BODY_END_LEADS],
  [SCRIPT_OPEN, BODY_END_LEADS], [RECORDED_RESPONSE, BODY_END_LEADS], [PRE_REQUEST_SCRIPT, BODY_END_LEADS],
  [FILE_VARIABLE, FILE_VARIABLE_LEADS],
  ...[PRE_REQUEST_SCRIPT, PRE_REQUEST_FILE, SCRIPT_OPEN, BLOCK_COMMENT_OPEN, PROTO_IMPORT, XPATH_NAMESPACE, JETBRAINS_IMPORT, JETBRAINS_RUN, CURL, GRAPHQL_FRAGMENT]
    .map((pattern) => [pattern, KEPT_BEFORE_REQUEST_LEADS] as const),
];

// Every whitespace \s and trim know, a few that are not (control characters, zero-width space), and ASCII.
const PREFIXES = ['', ' ', '\t', ' \t ', '\v', '\f', '\r', '\n', '\u00a0', '\u1680', '\u2000', '\u2028', '\u202f', '\u3000', '\ufeff', '\u200b', '\u0000', '\u001f', '\u0085', 'x'];
// What may follow the first character: pieces of every construct the patterns look for.
const SUFFIXES = ['', ' ', '{%', '{% x %}', '> file.js', '<> r.json', '?? status == 200', '{', '{{', '{{@pre', '}}', 'TTP/1.1 200 OK', 'HTTP/1.1 200', '/ comment', '# c', '* c */',
  'proto < a.proto', 'xpath_ns p=u', 'mport a.http', 'un #r', 'url -X GET u', 'mport ./a.http', 'un ./a.http', 'url https://x', '@name x', '[1]', 'ame: value', 'v = 1', '@v = 1', ' @name x', '\\'];
const FIRSTS = [...Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)), '\u00e9', '\u212a', '\ud83d\ude00', '\u00a0', '\ufeff', '\u2028'];

function* lines(): Generator<string> {
  for (const prefix of PREFIXES) for (const first of FIRSTS) for (const suffix of SUFFIXES) yield prefix + first + suffix;
  yield* ['', ' ', '\t\t', '\u00a0', ' \u3000 ', '\ufeff'];
}

void test('no per-line pattern matches a line whose leading character is not one the parser tries it for', () => {
  let skipped = 0;
  for (const line of lines()) {
    const lead = leadingCode(line);
    for (const [pattern, leads] of PATTERN_LEADS) {
      if (lead === -1 || leads.has(lead)) continue;
      skipped++;
      assert.equal(pattern.test(line), false, `${pattern} matches ${JSON.stringify(line)} (leading code ${lead})`);
    }
  }
  assert.ok(skipped > 100_000, `the shortcut was exercised (${skipped})`);
});

void test('the HTTP version pattern is tried only on a line ending with a digit: it matches no other', () => {
  let skipped = 0;
  let matched = 0;
  for (const line of lines()) {
    for (const ending of ['', ' HTTP/1.1', ' http/2', '\tHTTP/1.1 ', ' HTTP/1.', ' HTTP/\u0661', ' HTTP/1.1\u00a0', ' HTTP/1.1x']) {
      const text = line + ending;
      if (VERSION_AT_END.test(text)) matched++;
      if (endsWithDigit(text)) continue;
      skipped++;
      assert.equal(VERSION_AT_END.test(text), false, JSON.stringify(text));
    }
  }
  assert.ok(skipped > 100_000 && matched > 1000, `both sides exercised (${skipped} skipped, ${matched} matched)`);
});

void test('leadingCode: the first character that is not a space or a tab when printable ASCII, else -1', () => {
  assert.equal(leadingCode('  \t{'), 123);
  assert.equal(leadingCode('GET /'), 71);
  assert.equal(leadingCode(''), -1);
  assert.equal(leadingCode(' \t '), -1);
  assert.equal(leadingCode('\u00a0>'), -1, 'other whitespace: the patterns decide');
  assert.equal(leadingCode('\u00e9'), -1, 'not ASCII: the patterns decide');
  assert.equal(leadingCode('\v>'), -1);
  assert.equal(leadingCode('\u007f'), -1);
});

void test("isBlank is trim() === '' on every line", () => {
  let blank = 0;
  for (const line of lines()) {
    assert.equal(isBlank(line), line.trim() === '', JSON.stringify(line));
    if (isBlank(line)) blank++;
  }
  for (const prefix of PREFIXES) for (const other of PREFIXES) {
    const line = prefix + other + prefix;
    assert.equal(isBlank(line), line.trim() === '', JSON.stringify(line));
  }
  assert.ok(blank > 10);
});

void test('splitLines: a text without \\r is cut at \\n as the character loop cuts it', () => {
  const texts = ['', '\n', '\n\n', 'a', 'a\n', '\na', 'a\nb', 'a\n\nb\n', '### x\nGET /\n\n{}\n', '\u2028\n\u0085\n\u000b', 'é\n😀\n'];
  let state = 11;
  const next = (): number => { state = (state * 1103515245 + 12345) % 2147483648; return state; };
  const alphabet = ['\n', 'a', ' ', '\t', '{', '\u2028', '\u00e9', '\ud83d\ude00'];
  for (let t = 0; t < 2000; t++) texts.push(Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join(''));
  for (const text of texts) {
    assert.deepEqual(splitAtNewlines(text), splitAtAnyBreak(text), JSON.stringify(text));
    assert.deepEqual(splitLines(text), splitAtAnyBreak(text));
  }
  // With \r, the character loop: \r\n and a lone \r are breaks too.
  assert.deepEqual(splitLines('a\r\nb\rc\n').map((l) => [l.text, l.eol, l.offset]), [['a', '\r\n', 0], ['b', '\r', 3], ['c', '\n', 5], ['', '', 7]]);
});
