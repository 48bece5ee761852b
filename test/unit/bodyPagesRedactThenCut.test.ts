// Redact, then cut, for a large body shown a page at a time from disk (src/core/results/bodyPages.ts):
// each page is redacted on its own, so no page cut may fall inside what the redaction masks. A known
// secret inside a JSON string longer than a page (where the cut is forced), in base64 there, or a
// password holding a comma in a text body (where a comma is a place to cut) is masked whole on the page
// that shows it, wherever the page boundary falls (the body shifted a byte at a time): no page shows a part.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BodyPages } from '../../src/core/results/bodyPages';
import { SpillStore } from '../../src/core/results/spillStore';
import { Redactor } from '../../src/core/secrets/redact';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const PASSWORD = 'correct,horse;battery,staple-9';
const PAGE = 512;

async function pagesOf(text: string, json: boolean): Promise<string[]> {
  const store = new SpillStore(1 << 30);
  await store.write(Buffer.from(text));
  const redactor = new Redactor([KEY, PASSWORD]);
  const pages = new BodyPages(store, json, (t) => redactor.text(t), json ? 'application/json' : 'text/plain', PAGE);
  const out: string[] = [];
  for (let k = 0; k < pages.pageCount; k++) out.push((await pages.page(k)).text);
  return out;
}

/** No six characters of `secret` in a row on any page. */
function showsNoPart(pages: readonly string[], secret: string, where: string): void {
  for (let i = 0; i + 6 <= secret.length; i++) {
    const part = secret.slice(i, i + 6);
    const page = pages.findIndex((p) => p.includes(part));
    assert.equal(page, -1, `${where}: page ${page} shows '${part}' of the secret:\n${pages.join('\n|\n')}`);
  }
}

void describe('a spilled body\'s pages: no cut inside what the redaction masks', () => {
  void it('a key inside a JSON string longer than a page, at every offset around the forced cut', async () => {
    for (let shift = 0; shift < 80; shift++) {
      const pages = await pagesOf(JSON.stringify({ note: `${'a'.repeat(2 * PAGE - 60 + shift)}${KEY}${'b'.repeat(300)}`, after: 1 }), true);
      showsNoPart(pages, KEY, `shift ${shift}`);
      assert.ok(pages.join('').includes('***'), 'the key is masked on a page');
    }
  });

  void it('the key in base64 inside a long JSON string', async () => {
    const encoded = Buffer.from(`user:${KEY}`).toString('base64');
    for (let shift = 0; shift < 40; shift++) {
      const pages = await pagesOf(JSON.stringify({ blob: `${'a'.repeat(2 * PAGE - 40 + shift)}${encoded}${'b'.repeat(300)}` }), true);
      showsNoPart(pages, encoded.slice(8, -8), `shift ${shift}`);
    }
  });

  void it('a password holding commas in a text body, a comma just past the page', async () => {
    for (let shift = 0; shift < 40; shift++) {
      const pages = await pagesOf(`${'a'.repeat(PAGE - 20 + shift)}${PASSWORD}${'b'.repeat(2 * PAGE)}`, false);
      showsNoPart(pages, PASSWORD, `shift ${shift}`);
    }
  });
});
