// The panel's data source for a large response (issue 37): rows and body kept on disk past a few MB
// (RowStore, SpillStore in a 0600 file of a 0700 folder), read back a window at a time; the body's pages
// cut where JSON allows and redacted by the panel's rules; the files gone once disposed. End to end over
// real HTTP on 127.0.0.1: the editor's Send path (the exchange writing its rows to the store, the body's
// bytes copied as they arrive) against JSON.parse of the whole body as the oracle.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { engagementService } from '../../src/core/catalog/engagement';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { BodyPages, PAGE_BYTES } from '../../src/core/results/bodyPages';
import { RowStore } from '../../src/core/results/rowStore';
import { SpillStore } from '../../src/core/results/spillStore';
import { spilledViewModel } from '../../src/core/results/spilledView';
import { runExchange, type ExchangePorts, type ExchangeStep } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { Redactor } from '../../src/core/secrets/redact';
import { KeptResponse } from '../../src/extension/send/keptResponse';
import { devContext } from './exchangeContext';
import type { NamedResponse } from '../../src/core/httpfile/resolve';

const row = (i: number): Record<string, unknown> => ({ id: i, name: `row ${i}, [x] {y}`, note: i % 7 === 0 ? 'a "quoted" \\ value\nwith a break' : 'plain', password: `pw-${i}`, amount: i * 1.5 });
const rows = (n: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => row(i));

// The spill files are seen as the product leaves them, in the OS temp folder (core/json/spill.ts):
// TMPDIR is a folder of this file's own while it runs, so every spill folder listed there is its.
const osTemp = process.env['TMPDIR'];
let temp = '';
before(() => {
  temp = mkdtempSync(join(tmpdir(), 'apiwb-panelspill-'));
  process.env['TMPDIR'] = temp;
});
after(() => {
  if (osTemp === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = osTemp;
  rmSync(temp, { recursive: true, force: true });
});

/** The spill files in the OS temp folder now, besides `earlier`. */
function spillFiles(earlier: readonly string[] = []): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('apiwb-body-')).map((name) => join(tmpdir(), name, 'body')).filter((file) => existsSync(file) && !earlier.includes(file));
}

/** NDJSON of `all`, handed over in pieces of `size` bytes (lines cut across pieces). */
function pieces(all: readonly unknown[], size: number): Buffer[] {
  const bytes = Buffer.from(all.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

void describe('the rows of a large response on disk (RowStore)', () => {
  void it('spills past its bound to a 0600 file in a 0700 folder and reads any window back as written', async () => {
    const all = rows(1000);
    const store = new RowStore(4096);
    const earlier = spillFiles();
    await store.writeNdjsonPage(pieces(all, 777));
    assert.equal(store.spilled, true);
    assert.equal(store.rowCount, 1000);
    const [path, ...more] = spillFiles(earlier);
    assert.ok(path !== undefined && more.length === 0, 'one spill file');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    for (const [from, count] of [[0, 200], [63, 2], [64, 1], [500, 200], [990, 50], [999, 1]] as const) {
      assert.deepEqual(await store.readRows(from, count), all.slice(from, from + count), `rows ${from}+${count}`);
    }
    assert.deepEqual(await store.readRows(1000, 5), []);
    await store.remove();
    assert.equal(existsSync(dirname(path)), false);
    await assert.rejects(store.readRows(0, 1), /removed/);
  });

  void it('cuts a page the walk refuses, keeping the rows kept before it', async () => {
    const store = new RowStore(2048);
    await store.writePage(rows(40));
    const page = store.openPage();
    await page.writeNdjson(pieces(rows(100), 500), 100, new Set());
    assert.equal(store.rowCount, 40, 'a held page counts once kept');
    await page.drop();
    await store.writePage([{ id: 'after' }]);
    assert.equal(store.rowCount, 41);
    assert.deepEqual(await store.readRows(38, 5), [row(38), row(39), { id: 'after' }]);
    await store.remove();
  });

  void it('says in words when its file was cut, and still reads the rows before the cut', async () => {
    const all = rows(2000);
    const store = new RowStore(1024);
    const earlier = spillFiles();
    await store.writeNdjsonPage(pieces(all, 4096));
    const [path] = spillFiles(earlier);
    assert.ok(path);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    assert.deepEqual(await store.readRows(0, 10), all.slice(0, 10));
    await assert.rejects(store.readRows(1990, 10), /the rows on disk end after row 1990 of 2000/);
    await store.remove();
  });
});

void describe('a large body shown a page at a time (BodyPages)', () => {
  const body = { Data: rows(9000), password: 'top-level-secret', tail: 'end' };
  const text = JSON.stringify(body);
  const KNOWN = 'pw-4321';

  void it('cuts pages outside strings, so the pages put together are the body, each redacted', async () => {
    const store = new SpillStore(64 * 1024);
    await store.write(Buffer.from(text));
    const redactor = new Redactor([KNOWN]);
    const pages = new BodyPages(store, true, (t) => redactor.text(t), 'application/json');
    assert.ok(pages.pageCount >= 3 && pages.pageCount === Math.ceil(text.length / PAGE_BYTES));
    const shown: string[] = [];
    for (let k = 0; k < pages.pageCount; k++) {
      const page = await pages.page(k);
      assert.deepEqual(page.page, { index: k, count: pages.pageCount });
      assert.ok(!page.text.includes('pw-') && !page.text.includes('top-level-secret'), `page ${k + 1} shows a secret`);
      shown.push(page.text);
    }
    // Every secret-named value masked the same way: the pages together parse, with the body's shape.
    const together = JSON.parse(shown.join('')) as typeof body;
    assert.equal(together.Data.length, 9000);
    assert.deepEqual({ ...together.Data[8999], password: undefined }, { ...row(8999), password: undefined });
    assert.equal(together.tail, 'end');
    // A page asked past the end is the last one.
    assert.equal((await pages.page(10_000)).page?.index, pages.pageCount - 1);
    await store.remove();
  });

  void it('never cuts between a secret-named key and its value, wherever the page boundary falls', async () => {
    // The rows shifted a character at a time across the first boundary: one shift puts it at every place of a row.
    const rowsText = JSON.stringify(rows(3000));
    for (let shift = 0; shift < 120; shift++) {
      const store = new SpillStore(1 << 30);
      await store.write(Buffer.from(`{"pad":"${'x'.repeat(shift)}","Data":${rowsText}}`));
      const pages = new BodyPages(store, true, (t) => t, 'application/json');
      const second = await pages.page(1);
      assert.ok(!/pw-\d/.test(second.text.slice(0, 400)), `shift ${shift}: the second page starts with a secret's value: ${second.text.slice(0, 80)}`);
      await store.remove();
    }
  });
});

const BIG = rows(60_000);
const MEDIUM = { Data: rows(6000) };
let server: Server;
let base = '';
const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([engagementService]), timeoutMs: 30_000, guard: new SecretBindings() };

before(async () => {
  const bodies: Record<string, string> = { '/big': JSON.stringify(BIG), '/medium': JSON.stringify(MEDIUM), '/small': JSON.stringify(rows(5)) };
  server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/cut') {
      // A big array cut mid-stream: the connection dropped after most of it.
      const whole = Buffer.from(bodies['/big']!);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(whole.length) });
      res.write(whole.subarray(0, Math.floor(whole.length * 0.8)), () => res.destroy());
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(bodies[path] ?? '[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeHttpAgents();
});

/** The body lengths the steps saw, in the exchange and again when settled. */
const stepsSaw: number[] = [];
const probe: ExchangeStep = { name: 'probe', run: (context) => { stepsSaw.push(context.response.bodyText.length); return []; } };

/** As sendController sends: the document's named responses and the steps given to the exchange and to settle. */
async function send(path: string, remember = new Map<string, NamedResponse>()) {
  // Past 1 MiB on disk: BIG (about 6 MB) goes there, MEDIUM (about 0.6 MB) is held.
  const kept = new KeptResponse(1 << 20);
  const steps = [probe];
  stepsSaw.length = 0;
  const result = await runExchange({
    file: parseHttpFile(`# @name sent\nGET {{base}}${path}\n`), requestIndex: 0, prepare: devContext(base), remember,
    pages: 'first', steps, rowsTo: kept.rows, keepBodyWithin: kept.spillAt,
  }, kept.ports(ports));
  return { kept, exchanged: result, settled: await kept.settle(result, steps, ports.catalog, remember) };
}

void describe("the editor's Send of a large response (KeptResponse → spilledViewModel)", () => {
  void it('shows the first rows at once, any later row from disk redacted, and removes the files when disposed', async () => {
    const earlier = spillFiles();
    const { settled } = await send('/big');
    assert.ok(settled.stores, 'a body past the bound is kept on disk');
    const { result } = settled;
    assert.equal(result.rows?.count, BIG.length);
    assert.equal(result.response?.bodyText, '', 'the body is not held');
    const redactor = new Redactor(['row 59998, [x] {y}']);
    const { viewModel, source } = await spilledViewModel(result, result.response, settled.stores, { requestKey: 'k', title: 't', id: 'big-1', redactor });
    assert.equal(viewModel.table?.pagedRows, BIG.length);
    assert.equal(viewModel.table?.rows.length, 200);
    assert.deepEqual(viewModel.table?.rows[1], redactor.value(row(1)));
    assert.notEqual((viewModel.table?.rows[1] as { password: string }).password, 'pw-1');
    const last = await source.rows(BIG.length - 3, 10);
    assert.deepEqual(last.rows.map((r) => (r as { id: number }).id), [59_997, 59_998, 59_999]);
    assert.deepEqual(last.rows, BIG.slice(-3).map((r) => redactor.value(r)));
    assert.notEqual((last.rows[1] as { name: string }).name, row(59_998).name, 'a known secret value is redacted in rows read from disk');
    assert.notEqual((last.rows[0] as { password: string }).password, 'pw-59997');
    assert.deepEqual(viewModel.body.page, { index: 0, count: Math.ceil(result.response.sizeBytes / PAGE_BYTES) });
    assert.ok(!viewModel.body.text.includes('pw-'));
    // Two files: the rows (NDJSON) and the body.
    const files = spillFiles(earlier);
    assert.equal(files.length, 2);
    await source.dispose();
    assert.ok(files.every((f) => !existsSync(dirname(f))), 'the spill folders are removed');
    await assert.rejects(source.rows(0, 1), /removed/);
  });

  void it('past the bound, neither the exchange nor the steps read the body back whole; a named one is not remembered, said', async () => {
    const whole = JSON.stringify(BIG).length;
    const remember = new Map<string, NamedResponse>([['sent', { status: 200, headers: {}, bodyText: '"an older response"', origin: 'http://127.0.0.1' }]]);
    const { exchanged, settled } = await send('/big', remember);
    assert.ok(whole > 5 << 20 && settled.stores, `${whole} bytes, on disk past 1 MiB`);
    assert.ok((exchanged.response?.bodyText.length ?? 0) < 1 << 20, `the exchange held ${exchanged.response?.bodyText.length} characters of the body`);
    assert.equal(settled.result.response?.bodyText, '');
    assert.ok(stepsSaw.length >= 2 && stepsSaw.every((n) => n < 1 << 20), `the steps saw ${stepsSaw.join(', ')} characters`);
    assert.equal(remember.has('sent'), false, 'neither this body nor an older one under its name');
    assert.ok(settled.result.notices.some((n) => n.includes('{{sent.response…}} is not available') && n.includes('larger than the 1.0 MiB a body is read whole within')), settled.result.notices.join('\n'));
    await settled.stores.rows.remove();
    await settled.stores.body.remove();
  });

  void it('holds a response under the bound whole, as before: its body text, its rows, the checks on all of it', async () => {
    const remember = new Map<string, NamedResponse>();
    const { settled } = await send('/medium', remember);
    assert.equal(settled.stores, undefined);
    assert.equal(remember.get('sent')?.bodyText, JSON.stringify(MEDIUM), 'a named response is remembered whole, for {{sent.response.body…}}');
    assert.equal(settled.result.response?.bodyText, JSON.stringify(MEDIUM));
    assert.deepEqual(settled.result.body, MEDIUM);
    assert.equal(settled.result.rows?.items.length, MEDIUM.Data.length);
    const small = await send('/small');
    assert.deepEqual(small.settled.result.rows?.items, rows(5));
  });

  void it('a body cut mid-stream keeps exactly the rows fully received, on disk', async () => {
    const { kept, settled } = await send('/cut');
    // What arrived before the cut is what the body's copy holds (ASCII: bytes are characters).
    const received = JSON.stringify(BIG).slice(0, kept.body.size);
    assert.ok(kept.body.size > 0 && kept.body.size < JSON.stringify(BIG).length);
    const complete = (received.match(/"amount":[\d.]+\}/g) ?? []).length; // a row ends with its amount
    assert.equal(kept.rows.rowCount, complete);
    assert.deepEqual(await kept.rows.readRows(complete - 1, 5), [BIG[complete - 1]]);
    assert.ok(settled.result.problem ?? settled.result.incomplete, 'the cut is said');
    await kept.dispose();
  });
});
