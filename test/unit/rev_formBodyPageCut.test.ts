// A body too large to hold is shown a page at a time (BodyPages), each page redacted on its own by the
// panel's rules for a body shown as text (redactBodyText: a form body's secret-named fields masked). A
// page cut must never leave a secret-named field's value in the clear, wherever the cut falls: here a
// form-urlencoded body (no comma, line break or bracket: the cuts are forced ones) with a `password` field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BodyPages } from '../../src/core/results/bodyPages';
import { SpillStore } from '../../src/core/results/spillStore';

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
