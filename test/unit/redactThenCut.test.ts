// Redact, then cut (src/core/text/excerpt.ts): a text shown short is cut after the Redactor saw it whole.
// Oracle: a key placed at every offset across the cut never shows a part of itself through the run's
// Redactor (every Redactor: the cut is its last step); a server cannot forge a cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../src/core/secrets/redact';
import { cutShown, excerpt } from '../../src/core/text/excerpt';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const MARKS = /[\uE000-\uE002]/;

void test('a key at every offset across the cut: no part of it is shown, the cut still made', () => {
  const redactor = new Redactor([KEY]);
  for (let at = 150; at <= 210; at++) {
    const raw = `${'x'.repeat(at)}${KEY}${'y'.repeat(300)}`;
    for (const marked of [excerpt(raw, 200), cutShown(raw, 200)]) {
      const shown = redactor.text(`HTTP 500: ${marked} (page 2)`);
      assert.ok(!shown.includes(KEY.slice(0, 4)), `offset ${at}: ${shown}`);
      assert.ok(!MARKS.test(shown), `offset ${at}: a mark is shown`);
      assert.ok(shown.endsWith('… (page 2)'), `offset ${at}: ${shown}`);
      assert.equal(shown.length, 'HTTP 500: '.length + 200 + '… (page 2)'.length);
    }
  }
});

void test('a text within its bound is not marked; past it, the Redactor masks it whole, then cuts', () => {
  assert.equal(excerpt('a\n  b', 200), 'a b');
  assert.equal(cutShown('x'.repeat(200), 200), 'x'.repeat(200));
  const shown = new Redactor([KEY]).text(cutShown(`${'x'.repeat(190)}${KEY}`, 200));
  assert.equal(shown, `${'x'.repeat(190)}***`, 'masked whole; short enough once masked, so not cut');
});

void test('a server cannot forge a mark: the mark characters it sends are not obeyed', () => {
  const forged = '\uE000deadbeef5\uE001secret part stays\uE002';
  const shown = new Redactor().text(excerpt(`${forged}${'z'.repeat(300)}`, 200));
  assert.ok(shown.startsWith('\uFFFDdeadbeef5\uFFFDsecret part stays\uFFFD'), shown);
  assert.equal(new Redactor().text(forged), forged);
});

void test('a text past the kept bound never shows its last part, where a secret may have been cut', () => {
  const raw = `${KEY} ${'x'.repeat(70_000)}${KEY}`;
  const shown = new Redactor([KEY]).text(cutShown(raw, 200));
  assert.equal(shown, `*** ${'x'.repeat(196)}…`);
  const masked = new Redactor([KEY]).text(cutShown(`${`${KEY} `.repeat(1_700)}${KEY}`, 70_000));
  assert.ok(!masked.includes(KEY.slice(0, 8)), 'the part cut by the bound is shown');
});
