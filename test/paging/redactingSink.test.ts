import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redactingSink, type RowSink } from '../../src/core/export';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { ByteBlocks, JsonRowSplitter } from '../../src/core/export/jsonRowSplitter';
import { walk } from '../../src/core/paging/walker';
import { Redactor } from '../../src/core/secrets';

/** `s` with every character written as a JSON \u escape, as a hostile server may echo it. */
const unicodeEscaped = (s: string): string => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** A sink that counts the pages (or parts of pages written while they arrive) that took the streamed fast path (bytes written as they came). */
function countingSink(inner: RowSink): RowSink & { fastWrites(): number } {
  let fast = 0;
  return {
    ...inner, writePage: (r) => inner.writePage(r), writeNdjsonPage: (l, n, k) => { fast++; return inner.writeNdjsonPage!(l, n, k); },
    openPage: () => {
      const page = inner.openPage!();
      return { ...page, writeNdjson: (l, n, k) => { fast++; return page.writeNdjson(l, n, k); } };
    },
    checkpoint: () => inner.checkpoint(), close: () => inner.close(), fastWrites: () => fast,
  };
}

/** Hands NDJSON pieces to a sink as the walker does: with the keys the row splitter finds in those rows. */
function writeStreamed(sink: RowSink, pieces: readonly Buffer[], rowCount: number): Promise<void> {
  const rows = Buffer.concat(pieces).toString('utf8').split('\n').filter(Boolean);
  const splitter = new JsonRowSplitter(undefined, new ByteBlocks());
  splitter.push(Buffer.from(`[${rows.join(',')}]`));
  splitter.end();
  return sink.writeNdjsonPage!(pieces, rowCount, splitter.secretKeyCandidates);
}

function lines(...rows: unknown[]): Buffer[] {
  return [Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''))];
}

void describe('redactingSink', () => {
  void it('keeps the streamed fast path for pages with nothing to redact, and redacts the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-redacting-'));
    try {
      const inner = await openNdjsonSink(join(dir, 'rows.ndjson'));
      let fastWrites = 0;
      const counting: RowSink = { ...inner, writePage: (r) => inner.writePage(r), writeNdjsonPage: (l, n, k) => { fastWrites++; return inner.writeNdjsonPage!(l, n, k); }, checkpoint: () => inner.checkpoint(), close: () => inner.close() };
      const sink = redactingSink(counting, () => new Redactor(['sk_live_123456']));
      assert.equal(typeof sink.writeNdjsonPage, 'function', 'a sink that can take streamed pages still can');
      await writeStreamed(sink, lines({ id: 1, name: 'plain' }, { id: 2, name: 'also plain' }), 2);
      await writeStreamed(sink, lines({ id: 3, Password: 'hunter2' }), 1);
      await writeStreamed(sink, lines({ id: 4, note: 'key sk_live_123456 echoed' }), 1);
      await sink.writePage([{ id: 5, access_token: 'abc' }]);
      await sink.close();
      assert.equal(fastWrites, 1, 'only the clean page went through as it was');
      assert.deepEqual(readFileSync(join(dir, 'rows.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown), [
        { id: 1, name: 'plain' }, { id: 2, name: 'also plain' },
        { id: 3, Password: '***' },
        { id: 4, note: 'key *** echoed' },
        { id: 5, access_token: '***' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('asks for the redactor on every page, so secrets learnt mid-walk count from then on', async () => {
    const written: unknown[][] = [];
    const inner: RowSink = { format: 'memory', writePage: (rows) => { written.push([...rows]); return Promise.resolve(); }, checkpoint: () => undefined, close: () => Promise.resolve() };
    const known: string[] = [];
    const sink = redactingSink(inner, () => new Redactor(known));
    await sink.writePage([{ echo: 'token-learnt-later' }]);
    known.push('token-learnt-later');
    await sink.writePage([{ echo: 'token-learnt-later' }]);
    assert.deepEqual(written, [[{ echo: 'token-learnt-later' }], [{ echo: '***' }]]);
    assert.equal(typeof sink.writeNdjsonPage, 'undefined', 'no streamed path where the inner sink has none');
  });

  void it('catches secrets a hostile server echoes \\u-escaped, through a real streamed walk, and keeps the fast path for pages without such escapes', async () => {
    const secret = 'sk_live_9f8e7d6c5b4a';
    // Page 1: nothing to redact, harmless short escapes. Page 2: the attack. Page-headers style, 2 pages.
    const pages = [
      '[{"id":1,"note":"plain"},{"id":2,"note":"a \\"quoted\\" word\\n"}]',
      `[{"id":3,"note":"${unicodeEscaped(secret)}"},{"id":4,"${unicodeEscaped('password')}":"hunter2"},` +
        `{"id":5,"PASS\\u0057ORD":"x1y2"},{"id":6,"note":"key sk\\u005flive_9f8e7d6c5b4a echoed"}]`,
    ];
    const server = createServer((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      res.writeHead(200, { 'content-type': 'application/json', 'x-pagination-page': String(page), 'x-pagination-total-pages': '2' });
      res.end(pages[page - 1]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-redacting-'));
    try {
      const path = join(dir, 'rows.ndjson');
      const counting = countingSink(await openNdjsonSink(path));
      const sink = redactingSink(counting, () => new Redactor([secret]));
      const result = await walk({ method: 'GET', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rows`, headers: {} },
        { plan: { style: 'page-headers', options: {}, source: 'directive' }, sink });
      await sink.close();
      assert.equal(result.outcome, 'complete', result.message);
      const text = readFileSync(path, 'utf8');
      const rows = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const leaked of [secret, 'hunter2', 'x1y2']) {
        assert.ok(!JSON.stringify(rows).includes(leaked) && !text.includes(leaked), `${leaked} reached the file`);
      }
      assert.deepEqual(rows, [
        { id: 1, note: 'plain' }, { id: 2, note: 'a "quoted" word\n' },
        { id: 3, note: '***' }, { id: 4, password: '***' }, { id: 5, PASSWORD: '***' }, { id: 6, note: 'key *** echoed' },
      ]);
      assert.equal(counting.fastWrites(), 1, 'the page without a \\u escape or a secret kept the fast path');
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('treats every escape as a possible hiding place when a known secret holds a character a short escape spells', async () => {
    const slashy = 'tok/with/slashes==';
    const written: unknown[][] = [];
    let fast = 0;
    const inner: RowSink = { format: 'ndjson', writePage: (rows) => { written.push([...rows]); return Promise.resolve(); }, writeNdjsonPage: () => { fast++; return Promise.resolve(); }, checkpoint: () => undefined, close: () => Promise.resolve() };
    const sink = redactingSink(inner, () => new Redactor([slashy]));
    await writeStreamed(sink, [Buffer.from('{"id":7,"echo":"tok\\/with\\/slashes=="}\n')], 1);
    assert.deepEqual(written, [[{ id: 7, echo: '***' }]]);
    await writeStreamed(sink, [Buffer.from('{"id":8,"echo":"no escape, no secret"}\n')], 1);
    assert.equal(fast, 1);
  });

  void it('redacts a secret-named key that holds a short escape (db\\/password, a\\"token, x\\tsecret): the escape does not hide the name', async () => {
    const written: unknown[][] = [];
    let fast = 0;
    const inner: RowSink = { format: 'ndjson', writePage: (rows) => { written.push([...rows]); return Promise.resolve(); }, writeNdjsonPage: () => { fast++; return Promise.resolve(); }, checkpoint: () => undefined, close: () => Promise.resolve() };
    const sink = redactingSink(inner, () => new Redactor(['sk_live_no_escapable']));
    for (const page of ['{"id":1,"db\\/password":"hunter22"}\n', '{"id":2,"a\\"token":"t0k-22"}\n', '{"id":3,"x\\tsecret":"s3cr3t"}\n']) {
      await writeStreamed(sink, [Buffer.from(page)], 1);
    }
    assert.equal(fast, 0, 'each page was parsed and redacted');
    assert.deepEqual(written, [[{ id: 1, 'db/password': '***' }], [{ id: 2, 'a"token': '***' }], [{ id: 3, 'x\tsecret': '***' }]]);
    await writeStreamed(sink, [Buffer.from(`{"id":4,"${'x'.repeat(100)}_password":"hunter23"}\n`)], 1);
    assert.deepEqual(written.at(-1), [{ id: 4, [`${'x'.repeat(100)}_password`]: '***' }], 'a long secret key');
    assert.equal(fast, 0);
    await writeStreamed(sink, [Buffer.from('{"id":5,"note":"a \\"quoted\\" password word","path":"a\\/b"}\n')], 1);
    assert.equal(fast, 1, 'short escapes and a value that mentions a secret, without a secret key, keep the fast path');
  });

  void it('finds a secret or a secret key split between two streamed pieces', async () => {
    const secret = 'sk_live_0a1b2c3d4e5f';
    const written: unknown[][] = [];
    let fast = 0;
    const inner: RowSink = { format: 'ndjson', writePage: (rows) => { written.push([...rows]); return Promise.resolve(); }, writeNdjsonPage: () => { fast++; return Promise.resolve(); }, checkpoint: () => undefined, close: () => Promise.resolve() };
    const sink = redactingSink(inner, () => new Redactor([secret]));
    const line = Buffer.from(`{"id":1,"note":"${secret}","Token":"t-1"}\n`);
    for (const cut of [18, 24, 35]) await writeStreamed(sink, [line.subarray(0, cut), line.subarray(cut)], 1);
    assert.equal(fast, 0);
    assert.deepEqual(written, Array.from({ length: 3 }, () => [{ id: 1, note: '***', Token: '***' }]));
    const clean = Buffer.from('{"id":2,"note":"nothing here"}\n');
    await writeStreamed(sink, [clean.subarray(0, 10), clean.subarray(10)], 1);
    assert.equal(fast, 1, 'a clean page split in two keeps the fast path');
  });

  void it('writes as they came only the rows row() leaves unchanged, in order (generated hostile pages, cut into pieces)', async () => {
    const secret = 'sk_live_5e5e5e5e';
    const redactor = new Redactor([secret]);
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const keys = ['id', 'name', 'Password', 'passwordHint', 'nextPageToken', 'x\\u0074oken', 'db\\/secret', 'KEY', 'monkey', 'Session', 'note', 'api_key', 'tokenUrl'];
    const values = ['"plain"', '1', 'null', `"${secret}"`, `"a ${secret} b"`, `"sk\\u005flive_5e5e5e5e"`, '"pass word token"', '{"inner":"x"}', `{"access_token":"t"}`, '[1,{"Password":"p"}]'];
    let fastPages = 0;
    let slowPages = 0;
    let mixedPages = 0;
    for (let page = 0; page < 1_000; page++) {
      const rows = Array.from({ length: 1 + random(4) }, () => `{${Array.from({ length: 1 + random(3) }, (_, k) => `"${keys[random(keys.length)]!}${k > 0 ? k : ''}":${values[random(values.length)]!}`).join(',')}}`);
      const text = `${rows.join('\n')}\n`;
      const parsed = rows.map((r) => JSON.parse(r) as unknown);
      const unchanged = parsed.map((row) => JSON.stringify(redactor.row(row)) === JSON.stringify(row));
      const bytes = Buffer.from(text);
      const cut = random(bytes.length);
      // What reached the inner sink, in order: each row with the way it went (as sent, or as a row).
      const got: { how: 'bytes' | 'row'; text: string }[] = [];
      const inner: RowSink = {
        format: 'ndjson',
        writePage: (some) => { for (const r of some) got.push({ how: 'row', text: JSON.stringify(r) }); return Promise.resolve(); },
        writeNdjsonPage: (lines, n) => {
          const sent = Buffer.concat(lines).toString('utf8').split('\n').filter(Boolean);
          assert.equal(sent.length, n, 'the count handed on is the lines\' count');
          for (const line of sent) got.push({ how: 'bytes', text: line });
          return Promise.resolve();
        },
        checkpoint: () => undefined, close: () => Promise.resolve(),
      };
      await writeStreamed(redactingSink(inner, () => redactor), [bytes.subarray(0, cut), bytes.subarray(cut)], rows.length);
      assert.equal(got.length, rows.length, `every row once: ${text}`);
      for (const [i, g] of got.entries()) {
        if (g.how === 'bytes') {
          assert.ok(unchanged[i], `a row row() changes went as it came: ${rows[i]!} in ${text}`);
          assert.equal(g.text, rows[i], 'a row as it came keeps its text');
        } else assert.equal(g.text, JSON.stringify(redactor.row(parsed[i])), `row ${i} redacted: ${text}`);
      }
      const ways = new Set(got.map((g) => g.how));
      if (ways.size === 2) mixedPages++;
      else if (ways.has('bytes')) fastPages++;
      else slowPages++;
    }
    assert.ok(fastPages > 10 && slowPages > 10 && mixedPages >= 2, `${fastPages} fast, ${slowPages} slow and ${mixedPages} mixed pages: the corpus holds all three`);
  });

  void it('keeps the text of a row redaction leaves as it was, and the numbers of one it changes (1E400 stays 1E400)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-redacting-'));
    try {
      const path = join(dir, 'rows.ndjson');
      const sink = redactingSink(await openNdjsonSink(path), () => new Redactor(['sk_live_77777777']));
      const page = '{"id":1,"n":1E400,"s":"\\u0041"}\n{"id":2,"n":1E400,"Password":"p"}\n{"id":3,"n":1E400}\n';
      await writeStreamed(sink, [Buffer.from(page)], 3);
      await sink.close();
      // The changed row keeps its numbers' text too (numberText.ts rowJsonText), only the secret masked.
      assert.equal(readFileSync(path, 'utf8'), '{"id":1,"n":1E400,"s":"\\u0041"}\n{"id":2,"n":1E400,"Password":"***"}\n{"id":3,"n":1E400}\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
