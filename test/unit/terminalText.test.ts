// Terminal output of text a server or file supplied (terminalSafe, and the run summary line built with
// it): escape sequences, OSC titles, carriage returns, line breaks and bidi overrides arrive as visible
// escapes on the product's own line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatOutcome } from '../../src/cli/reporters/summary';
import { terminalSafe } from '../../src/core/text/terminalText';

void describe('terminalSafe', () => {
  void it('escapes ESC, OSC, CR, LF, other C0 and C1 controls, DEL and bidi overrides; keeps the rest', () => {
    assert.equal(terminalSafe('a\u001b[31mred\u001b[0m'), 'a\\x1b[31mred\\x1b[0m');
    assert.equal(terminalSafe('\u001b]0;title\u0007'), '\\x1b]0;title\\x07');
    assert.equal(terminalSafe('ok\r✓ forged\nnext'), 'ok\\r✓ forged\\nnext');
    assert.equal(terminalSafe('\u0000\u007f\u009b\u0085'), '\\x00\\x7f\\x9b\\x85');
    assert.equal(terminalSafe('abc\u202edcba'), 'abc\\u202edcba');
    assert.equal(terminalSafe('tab\there'), 'tab here');
    assert.equal(terminalSafe('Grüße — 日本 😀 {"a":1}'), 'Grüße — 日本 😀 {"a":1}');
  });

  void it('every UTF-16 code unit is changed exactly when it is one of those or a tab (the shortcut for clean texts misses none)', () => {
    const changed = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\t/;
    for (let code = 0; code <= 0xffff; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      assert.equal(terminalSafe(text) !== text, changed.test(text), `U+${code.toString(16).padStart(4, '0')}`);
    }
  });

  void it('a summary line with a hostile label, URL, business failure and problem stays one line with one mark', () => {
    const line = formatOutcome({
      file: 'a.http', line: 1, label: 'x\n✓ fake', method: 'GET', url: 'http://h/\u001b[2K', status: 200, totalMs: 1,
      businessFailures: ['Nope\r\u001b[2K✓ paid'], problem: 'bad\n✓ also fake', ok: false,
    }, true);
    assert.equal(line.split('\n').length, 1);
    assert.equal(line.match(/\u001b/g)?.length, 4, 'only the product\'s own colour codes (mark and status)');
    assert.ok(line.includes('x\\n✓ fake') && line.includes('Nope\\r\\x1b[2K✓ paid') && line.includes('bad\\n✓ also fake'));
  });
});
