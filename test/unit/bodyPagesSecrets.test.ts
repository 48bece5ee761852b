// A large body's pages read from disk never show a secret-named key's value (issue 37 review): the whole
// value masked, a string, a number, an array or an object at any depth, wherever the page boundary falls
// (small pages, the body shifted a byte at a time), compact and pretty-printed, and the other values shown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BodyPages, PAGE_BYTES } from '../../src/core/results/bodyPages';
import { SpillStore } from '../../src/core/results/spillStore';

const SECRETS = ['SECRET-STR', '987654321', 'SECRET-ARR', 'SECRET-OBJ', 'SECRET-DEEP', 'SECRET-NESTED', 'SECRET-ESC', 'SECRET-NL', 'SECRET-TAIL'];
const VISIBLE = ['VISIBLE-1', 'VISIBLE-URL', 'VISIBLE-NEXT', 'VISIBLE-AFTER', 'VISIBLE-LAST', '4242'];

const value = {
  id: 'VISIBLE-1',
  password: 'SECRET-STR',
  token: 987654321,
  apiKeys: ['SECRET-ARR', 'SECRET-ARR'],
  client_secret: { value: 'SECRET-OBJ', inner: { deep: [1, 'SECRET-DEEP', { x: 'SECRET-DEEP' }] } },
  meta: { list: [{ password: 'SECRET-NESTED', after: 'VISIBLE-AFTER' }], token_url: 'VISIBLE-URL', nextPageToken: 'VISIBLE-NEXT' },
  pin: 4242,
  'pass\u0077ord_hash': 'SECRET-ESC',
};
const compact = `{"rows":[${JSON.stringify(value).replace('"id"', '"pass\\u0077ord_hash":"SECRET-ESC","id"')},${JSON.stringify(value)}],"last":"VISIBLE-LAST","session":{"id":["SECRET-TAIL"]}}`;
// Pretty-printed, with a line break between a key and its value.
const pretty = JSON.stringify(JSON.parse(compact), null, 2).replace('"password": "SECRET-STR"', '"password":\n    "SECRET-NL"');

async function pagesOf(text: string, pageBytes: number): Promise<string[]> {
  const store = new SpillStore(1 << 30);
  await store.write(Buffer.from(text));
  const pages = new BodyPages(store, true, (t) => t, 'application/json', pageBytes);
  const out: string[] = [];
  for (let k = 0; k < pages.pageCount; k++) out.push((await pages.page(k)).text);
  await store.remove();
  return out;
}

void describe('the pages of a spilled body mask every secret-named value', () => {
  for (const [name, body] of [['compact', compact], ['pretty-printed', pretty]] as const) {
    void it(`${name}: at every boundary position, no secret on any page, the rest shown`, async () => {
      assert.ok(body.includes('SECRET-ARR') && body.includes('987654321'));
      for (const pageBytes of [5, 16, 64]) {
        for (let shift = 0; shift < pageBytes + 3; shift++) {
          const shown = await pagesOf(`{"pad":"${'p'.repeat(shift)}","body":${body}}`, pageBytes);
          const where = `${name}, ${pageBytes}-byte pages, shift ${shift}`;
          shown.forEach((page, k) => assert.ok(!/SECRET|987/.test(page), `${where}: page ${k} shows a secret: ${page}`));
          const together = shown.join('').replace(/\s/g, '');
          for (const secret of SECRETS) assert.ok(!together.includes(secret), `${where}: ${secret} shown across pages`);
          for (const visible of VISIBLE) assert.ok(together.includes(visible), `${where}: ${visible} hidden`);
        }
      }
    });
  }

  void it('at the default page size, pages that do not parse alone still mask arrays and objects', async () => {
    // Over three default pages: no page is JSON by itself, so the text rules alone would show the arrays.
    const big = `{"rows":[${Array.from({ length: 2500 }, () => JSON.stringify(value)).join(',')}]}`;
    const shown = await pagesOf(big, PAGE_BYTES);
    assert.ok(shown.length >= 3);
    shown.forEach((page, k) => assert.ok(!/SECRET|987654321/.test(page), `page ${k} shows a secret: ${/.{0,80}(SECRET|987654321).{0,40}/.exec(page)?.[0] ?? ''}`));
    assert.ok(shown.every((page) => page.includes('VISIBLE-AFTER')));
  });

  void it('a body not JSON keeps the text rules (name=value masked, the rest shown)', async () => {
    const store = new SpillStore(1 << 30);
    await store.write(Buffer.from(`line one\npassword=SECRET-STR&user=VISIBLE-1\n${'z'.repeat(100)}`));
    const pages = new BodyPages(store, false, (t) => t, 'text/plain', 64);
    const shown = (await Promise.all(Array.from({ length: pages.pageCount }, (_, k) => pages.page(k)))).map((p) => p.text).join('');
    assert.ok(!shown.includes('SECRET-STR') && shown.includes('VISIBLE-1'), shown);
    await store.remove();
  });
});
