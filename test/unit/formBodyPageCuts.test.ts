// A body too large to hold is shown a page at a time (BodyPages), each page redacted on its own by the
// panel's rules for a body shown as text (redactBodyText: a form body's secret-named fields masked). A
// page cut must never leave a secret-named field's value in the clear, wherever the cut falls: here a
// form-urlencoded body (no comma, line break or bracket: the cuts are forced ones) with a `password` field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BodyPages } from '../../src/core/results/bodyPages';
import { SpillStore } from '../../src/core/results/spillStore';
import { Redactor } from '../../src/core/secrets/redact';

const PAGE = 4096;
const SECRET = 'SECRETVALUE123456';

void test('no page of a form body shows a password value, wherever the page cut falls in the field', async () => {
  const leaks: string[] = [];
  for (let shift = 0; shift < 30; shift++) {
    // The forced cut of page 1 falls at 2 × PAGE - 1: the field is shifted across it a character at a time.
    const head = `a=${'x'.repeat(2 * PAGE - 1 - 12 - 2 + shift)}`;
    const body = `${head}&password=${SECRET}&b=1`;
    const store = new SpillStore(1 << 30);
    await store.write(Buffer.from(body));
    const pages = new BodyPages(store, false, (t) => t, 'application/x-www-form-urlencoded', PAGE);
    for (let k = 0; k < pages.pageCount; k++) {
      const text = (await pages.page(k)).text;
      if (text.includes(SECRET.slice(4, 12))) leaks.push(`shift ${shift}, page ${k}: …${text.slice(-30)}`.replace(/\n/g, ' '));
    }
    await store.remove();
  }
  assert.deepEqual(leaks, [], 'the password shown in the clear on a page');
});

void test('a form field longer than a page: no cut in its name, at its = or in its value shows the value', async () => {
  // Forced cuts only (no & within a page): the name is long, the value spans pages. The cut of page 1 falls
  // 20 characters into "password=SECRET…" at shift 0, right after its = at 11, before it at 12, in the
  // name from 13, before it at 20. Redacted by nothing else (the cuts fall where forced), then by the panel's redactor.
  const token = Array.from({ length: 3 * PAGE }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[(i * 7) % 26]).join('');
  const redactor = new Redactor([]);
  const leaks: string[] = [];
  const everyShift = Array.from({ length: 30 }, (_, i) => i);
  // The panel's redactor moves a cut it sees split a pair a byte at a time (splitsRedaction): two shifts (a cut in the value, in the name).
  for (const [redact, shifts] of [[(t: string) => t, everyShift], [(t: string) => redactor.text(t), [0, 16]]] as const) {
    for (const shift of shifts) {
      const name = `${'n'.repeat(2 * PAGE - 1 - 4 - 20 + shift)}password`;
      const body = `a=1&${name}=${SECRET}${token}&b=1`;
      const store = new SpillStore(1 << 30);
      await store.write(Buffer.from(body));
      const pages = new BodyPages(store, false, redact, 'application/x-www-form-urlencoded', PAGE);
      for (let k = 0; k < pages.pageCount; k++) {
        const text = (await pages.page(k)).text;
        for (const part of [SECRET.slice(4, 12), SECRET.slice(-6), token.slice(0, 12), token.slice(PAGE, PAGE + 12), token.slice(-12)]) {
          if (text.includes(part)) leaks.push(`shift ${shift}, page ${k} shows ${part}`);
        }
      }
      await store.remove();
    }
  }
  assert.deepEqual(leaks, [], 'a part of the value shown in the clear on a page');
});
