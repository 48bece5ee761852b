// A style's row path at any depth (items=a.b.c, issue 37) streams as rows one level down do: only the
// array at the path (and at the whole path as one top-level key, which the rule reads first) is cut out
// as it arrives (src/core/json/pathLanes.ts), its rows split while they arrive, and the one rows rule
// (rows.ts) asked of the body's skeleton at the end. Oracles: JSON.parse of the whole body and the rule;
// for a body cut at any point, the rule over the rows fully received (laneReads.ts, oracleAt). Through
// readAnywhere, through the exchange to a real NDJSON file over HTTP (streamed against buffered), and
// through `apiwb run --out` for the faults: none of them is a silent 0 rows with exit 0.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { detectBusinessErrors } from '../../src/core/catalog/businessErrors';
import { engagementService } from '../../src/core/catalog/engagement';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import type { RowSink } from '../../src/core/export/sink';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { PathLanes } from '../../src/core/json/pathLanes';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule, type RowsRule } from '../../src/core/paging/rows';
import { businessFailureWords, DISCARD, runExchange, type ExchangePorts, type ExchangeResult } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';
import { devContext } from '../unit/exchangeContext';
import { collectingSink, oracleAt, pages, type Built } from './laneReads';

const row = (i: number, pad = 0): Record<string, unknown> => ({ id: i, name: `row ${i}${'x'.repeat(pad)}`, note: i % 5 === 0 ? 'a "quoted" \\ [value] {x}' : 'plain', tags: ['t', i, { deep: [i] }] });
const rows = (n: number, pad = 0): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => row(i, pad));

const KEYS = ['result', 'data', 'page', 'rows'];
const pathOf = (depth: number): string[] => KEYS.slice(0, depth);

interface DeepOptions {
  /** The first key of the path written with an escape (`res\u0075lt`). */
  readonly escaped?: boolean;
  /** A top-level key spelt as the whole path, holding these rows (before the path): the rule reads it first. */
  readonly whole?: unknown[];
  /** Top-level fields first (business errors, a next link). */
  readonly head?: Record<string, unknown>;
}

/**
 * A body with `list` at `keys` (any depth), and around it, at every level, what a cut could take for it:
 * arrays, brackets and quotes in strings, the path's own key names off the path; where each row ends.
 */
function deepBody(keys: readonly string[], list: readonly unknown[], options: DeepOptions = {}): Built {
  let text = '{';
  const ends: Built['ends'] = [];
  const writeRows = (path: string[], value: readonly unknown[]): void => {
    text += '[';
    value.forEach((r, i) => {
      if (i > 0) text += ',';
      text += JSON.stringify(r);
      ends.push({ path, end: Buffer.byteLength(text), row: r });
    });
    text += ']';
  };
  for (const [key, value] of Object.entries(options.head ?? {})) text += `${JSON.stringify(key)}:${JSON.stringify(value)},`;
  text += `"Side":[{"id":-1,"${keys[0]!}":[1]}],"decoy":{"${keys[0]!}":{"${keys[1]!}":[{"id":-2}]}},"s":"\\"${keys[0]!}\\":[",`;
  if (options.whole) {
    text += `${JSON.stringify(keys.join('.'))}:`;
    writeRows([keys.join('.')], options.whole);
    text += ',';
  }
  keys.forEach((key, d) => {
    const spelt = d === 0 && options.escaped ? `"${key.slice(0, 3)}\\u00${key.charCodeAt(3).toString(16)}${key.slice(4)}"` : JSON.stringify(key);
    text += `${spelt}:`;
    if (d < keys.length - 1) text += `{"before${d}":{"k":[1,[2]],"${keys[d + 1]!}x":[{"id":-3}]},"s${d}":"]}\\"{[","list${d}":[{"id":${-10 - d}}],`;
  });
  writeRows([...keys], list);
  for (let d = keys.length - 2; d >= 0; d--) text += `,"after${d}":"]}","n${d}":null}`;
  text += ',"Tail":{"z":[3]}}';
  return { text, ends };
}

/** readAnywhere with the rule of `items`, over `text` in chunks of `step`, cut after `cut` bytes: the rows written. */
async function readDeep(rule: RowsRule, path: string, text: string, cut: number, step: number, how: 'throw' | 'end' = 'end'): Promise<{ lines: unknown[]; rowCount: number | undefined; error: unknown }> {
  const bytes = Buffer.from(text).subarray(0, cut);
  const written: string[] = [];
  const sink = pages();
  let error: unknown;
  let rowCount: number | undefined;
  try {
    const got = await readAnywhere(async (each) => {
      for (let i = 0; i < bytes.length; i += step) await each(bytes.subarray(i, i + step));
      if (how === 'throw') throw new Error('connection cut');
    }, (body) => rule.find(body), (b) => { written.push(Buffer.concat(b).toString('utf8')); return Promise.resolve(); }, true, sink.tentative, { path });
    rowCount = got.streamed?.rowCount;
  } catch (e) {
    error = e;
  }
  const lines = [...sink.kept, ...written].join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  return { lines, rowCount, error };
}

// Past the 256 KiB held whole, and (3000 rows of ~200 bytes) past the 1 MiB a lane keeps in memory.
const LIST = rows(3000, 100);

void describe('an items= path at any depth streams by the one rows rule', () => {
  for (const depth of [2, 3, 4]) {
    const path = pathOf(depth).join('.');
    for (const [name, built] of [
      ['plain', deepBody(pathOf(depth), LIST)],
      ['first key escaped', deepBody(pathOf(depth), LIST, { escaped: true })],
      ['whole path as a key first', deepBody(pathOf(depth), LIST, { whole: rows(400) })],
    ] as const) {
      void it(`depth ${depth}, ${name}: the rows and count JSON.parse and the rule find, whatever the chunk size and style`, async () => {
        for (const style of ['none', 'generic', 'page-headers'] as const) {
          const rule = rowsRule(style, { items: path });
          assert.equal(rule.streamRows?.path, path, `${style}: streamed anywhere, at the path`);
          const expected = rule.find(JSON.parse(built.text));
          assert.ok(expected.ok && expected.rows.length >= 400, style);
          for (const step of [1 << 16, 4093, 997]) {
            const got = await readDeep(rule, path, built.text, Buffer.byteLength(built.text), step);
            assert.equal(got.error, undefined, `${style}, chunks of ${step}`);
            assert.deepEqual(got.lines, expected.rows, `${style}, chunks of ${step}`);
            assert.equal(got.rowCount, expected.rows.length, `${style}, chunks of ${step}: count`);
          }
        }
      });
    }

    void it(`depth ${depth}: cut at any point keeps exactly the rows fully received`, async () => {
      const built = deepBody(pathOf(depth), LIST, { whole: depth === 3 ? rows(50) : undefined });
      const rule = rowsRule('none', { items: path });
      const size = Buffer.byteLength(built.text);
      const cuts = Array.from({ length: 40 }, (_, i) => Math.floor((size * (i + 1)) / 41)).concat(built.ends.slice(0, 20).map((e) => e.end), built.ends.slice(-3).map((e) => e.end - 1), [size - 1]);
      for (const cut of cuts) {
        for (const how of ['throw', 'end'] as const) {
          const got = await readDeep(rule, path, built.text, cut, 8191, how);
          assert.ok(got.error instanceof Error, `cut at ${cut}: fails`);
          assert.deepEqual(got.lines, oracleAt(built, cut, rule), `cut at ${cut} (${how})`);
        }
      }
    });
  }

  void it('a body broken inside the rows keeps the rows before the fault, said at its byte', async () => {
    const built = deepBody(pathOf(3), LIST);
    const text = built.text.replace('{"id":2000,', '{"id":2000,,');
    const got = await readDeep(rowsRule('none', { items: 'result.data.page' }), 'result.data.page', text, Buffer.byteLength(text), 4096);
    assert.match(String(got.error), new RegExp(`malformed JSON at byte ${text.indexOf('{"id":2000,,') + '{"id":2000,'.length}:`));
    assert.deepEqual(got.lines, rows(2000, 100));
  });

  void it('a key of the path given again after its rows is refused, and no row is kept', async () => {
    for (const [again, key] of [[',"result":{}', 'result'], [',"data":[]', 'data'], [',"page":null', 'page']] as const) {
      const built = deepBody(pathOf(3), LIST);
      // Inserted into the object that holds it on the path, after the rows.
      const at = again === ',"result":{}' ? built.text.length - 1 : built.text.indexOf(again === ',"data":[]' ? ',"after0"' : ',"after1"');
      const text = `${built.text.slice(0, at)}${again}${built.text.slice(at)}`;
      const got = await readDeep(rowsRule('none', { items: 'result.data.page' }), 'result.data.page', text, Buffer.byteLength(text), 4096);
      assert.match(String(got.error), new RegExp(`the rows path "result.data.page" is given twice in the body \\("${key}" again at byte ${at + 1}\\)`));
      assert.deepEqual(got.lines, [], `${key}: no row kept`);
    }
  });

  void it('a key of the path given again before the rows reads as JSON.parse reads it: the last', async () => {
    const built = deepBody(pathOf(3), LIST);
    const text = `{"result":{"data":{"page":7}},"result":[1],${built.text.slice(1)}`;
    const rule = rowsRule('none', { items: 'result.data.page' });
    const expected = rule.find(JSON.parse(text));
    assert.ok(expected.ok);
    const got = await readDeep(rule, 'result.data.page', text, Buffer.byteLength(text), 4096);
    assert.equal(got.error, undefined);
    assert.deepEqual(got.lines, expected.rows);
  });

  void it('a top-level array is no rows for a path: refused by the rule, none written', async () => {
    const text = JSON.stringify(rows(5000));
    const rule = rowsRule('none', { items: 'a.b.c' });
    const got = await readDeep(rule, 'a.b.c', text, Buffer.byteLength(text), 4096);
    assert.equal(got.error, undefined);
    assert.deepEqual(got.lines, []);
    assert.equal(rule.find(JSON.parse(text)).ok, false);
  });

  void it('the cut follows strings, escapes and keys across chunk boundaries, and only the path', () => {
    const text = '{"a":{"b\\"":[0],"s":"\\"b\\":[","b":{"x":[1],"c":[1,"]\\\\",{"c":[2]}],"z":[9]}},"a.b.c":["w"],"o":{"a":{"b":{"c":[5]}}}}';
    for (let step = 1; step <= text.length; step++) {
      const cut = new PathLanes('a.b.c', ['a', 'b', 'c']);
      const seen: string[] = [];
      let inside = '';
      let outside = '';
      const bytes = Buffer.from(text);
      for (let i = 0; i < bytes.length; i += step) {
        cut.push(bytes.subarray(i, i + step), {
          outside: (b) => { outside += b.toString(); },
          inside: (b) => { inside += b.toString(); },
          open: (k) => seen.push(k.join('|')),
          close: () => { inside += '|'; },
        });
      }
      assert.deepEqual(seen, ['a|b|c', 'a.b.c'], `chunks of ${step}`);
      assert.equal(inside, '1,"]\\\\",{"c":[2]}|"w"|', `chunks of ${step}`);
      assert.equal(outside, '{"a":{"b\\"":[0],"s":"\\"b\\":[","b":{"x":[1],"c":[],"z":[9]}},"a.b.c":[],"o":{"a":{"b":{"c":[5]}}}}', `chunks of ${step}`);
    }
  });
});

const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([engagementService]), timeoutMs: 60_000, guard: new SecretBindings() };

/** Bodies by URL path: the rows at depth 2, 3 and 4, with and without business errors, and the faults. */
const BODIES: Record<string, string> = {
  '/d2': deepBody(pathOf(2), LIST).text,
  '/d3': deepBody(pathOf(3), LIST, { head: { ResponseStatus: false, Errors: [{ ErrorCode: 1, ErrorDescription: 'Missing mandatory fields' }] } }).text,
  '/d4': deepBody(pathOf(4), LIST, { escaped: true }).text,
  '/d3-small': deepBody(pathOf(3), rows(20)).text,
  // Faults (each past the size held whole, so it streams).
  '/object-at-path': JSON.stringify({ result: { data: { page: Object.fromEntries(rows(3000).map((r, i) => [`r${i}`, r])) } } }),
  '/string-at-path': JSON.stringify({ result: { data: { page: 'x'.repeat(400_000) } }, Side: rows(3000) }),
  '/array-in-the-middle': JSON.stringify({ result: { data: [{ page: rows(3000) }] } }),
  '/missing': JSON.stringify({ result: { data: { other: rows(3000) } }, rows: rows(10) }),
  '/null-at-path': JSON.stringify({ result: { data: { page: null } }, Side: rows(3000) }),
  '/twice-after': `${deepBody(pathOf(3), LIST).text.slice(0, -1)},"result":{"data":{"page":[]}}}`,
  '/array-body': JSON.stringify(rows(3000)),
};

void describe('an items= path at any depth through the exchange, over HTTP', () => {
  let server: Server;
  let base = '';
  let dir = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-deep-'));
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/generated') {
        // Rows three levels down past the body-size limit (256 MiB), never held by this server either.
        const block = Buffer.from(`${Array.from({ length: 4096 }, (_, i) => JSON.stringify(row(i))).join(',')},`);
        const blocks = Math.ceil((300 * 1048576) / block.length);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"Status":"ok","result":{"data":{"page":[');
        let sent = 0;
        const next = (): void => {
          while (sent < blocks) {
            sent++;
            if (!res.write(block)) return void res.once('drain', next);
          }
          res.end('{"id":"last"}],"after":1}}}');
        };
        next();
        return;
      }
      const body = BODIES[path];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(body ?? '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await closeHttpAgents();
    rmSync(dir, { recursive: true, force: true });
  });

  /** file: apiwb run --out; counted: a sink of its own; discard: apiwb run without --out (rows only counted); buffered: no sink. */
  async function exchange(path: string, directive: string, how: 'file' | 'counted' | 'discard' | 'buffered'): Promise<{ result: ExchangeResult; rows: unknown[] }> {
    const file = parseHttpFile(`${directive}\nGET {{base}}${path}\n`);
    const out = join(dir, 'out.ndjson');
    const sink = how === 'file' ? await openNdjsonSink(out) : how === 'counted' ? collectingSink() : how === 'discard' ? DISCARD : undefined;
    const result = await runExchange({ file, requestIndex: 0, prepare: devContext(base), pages: 'first', continuable: false, ...(sink ? { rowsTo: sink } : {}) }, ports);
    await sink?.close();
    const got = how === 'file' ? readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)
      : how === 'counted' ? (sink as ReturnType<typeof collectingSink>).lines.map((l) => JSON.parse(l) as unknown) : [...(result.rows?.items ?? [])];
    // Without --out the rows are counted, never kept (rows.items stays empty).
    if (how === 'discard') assert.deepEqual(got, []);
    return { result, rows: got };
  }

  const cases: readonly (readonly [string, string])[] = [['/d2', 'result.data'], ['/d3', 'result.data.page'], ['/d4', 'result.data.page.rows'], ['/d3-small', 'result.data.page']];
  for (const [path, items] of cases) {
    void it(`${path} (items=${items}): the same rows, count and business verdict streamed to a file as buffered`, async () => {
      const body = JSON.parse(BODIES[path]!) as unknown;
      for (const style of ['none', 'generic', 'page-headers']) {
        const expected = rowsRule(style as 'none' | 'generic' | 'page-headers', { items }).find(body);
        assert.ok(expected.ok);
        const business = detectBusinessErrors(body);
        const failures = business.failed ? business.failures.map((f) => businessFailureWords(f, business.catalogue)) : [];
        for (const how of ['file', 'discard', 'buffered'] as const) {
          const { result, rows: got } = await exchange(path, `# @paging ${style} items=${items}`, how);
          const said = `${style}, ${how}`;
          assert.equal(result.response?.status, 200, said);
          assert.equal(result.rows?.count, expected.rows.length, `${said}: count`);
          if (how !== 'discard') assert.deepEqual(got, expected.rows, `${said}: rows`);
          assert.deepEqual(result.businessFailures, failures, `${said}: business verdict`);
          assert.equal(result.ok, failures.length === 0, `${said}: ok (${result.problem ?? ''})`);
        }
      }
    });
  }

  // What each fault gives, streamed or buffered alike: a failure that names the path (never 0 rows and ok).
  const faults: readonly (readonly [string, string, RegExp | 'no rows'])[] = [
    ['/object-at-path', 'result.data.page', /no array at "result\.data\.page" \(set by items=\)/],
    ['/string-at-path', 'result.data.page', /no array at "result\.data\.page" \(set by items=\)/],
    ['/array-in-the-middle', 'result.data.page', /no array at "result\.data\.page" \(set by items=\)/],
    ['/missing', 'result.data.page', /no array at "result\.data\.page" \(set by items=\)/],
    ['/array-body', 'result.data.page', /no array at "result\.data\.page" \(set by items=\)/],
    // null at the path is no rows (rows.ts: "null there is no rows"): a success with 0 rows, as buffered.
    ['/null-at-path', 'result.data.page', 'no rows'],
  ];
  for (const [path, items, said] of faults) {
    void it(`${path}: ${said === 'no rows' ? 'no rows, as JSON.parse reads it' : 'a failure naming the path'}, streamed as buffered, nothing written`, async () => {
      for (const style of ['none', 'generic']) {
        for (const how of ['file', 'counted', 'discard', 'buffered'] as const) {
          const { result, rows: got } = await exchange(path, `# @paging ${style} items=${items}`, how);
          const where = `${style}, ${how}`;
          assert.deepEqual(got, [], `${where}: no rows`);
          if (said === 'no rows') {
            assert.equal(result.ok, true, `${where}: ${result.problem ?? ''}`);
            assert.equal(result.rows?.count ?? 0, 0, where);
          } else {
            assert.equal(result.ok, false, `${where}: fails`);
            assert.match(result.problem ?? '', said, where);
          }
        }
      }
    });
  }

  void it('a key of the path given again after the rows: refused when streamed, the last one when buffered (as JSON.parse)', async () => {
    const { result, rows: got } = await exchange('/twice-after', '# @paging none items=result.data.page', 'file');
    assert.equal(result.ok, false);
    assert.match(result.problem ?? '', /the rows path "result\.data\.page" is given twice in the body \("result" again at byte \d+\)/);
    assert.deepEqual(got, []);
    const buffered = await exchange('/twice-after', '# @paging none items=result.data.page', 'buffered');
    assert.equal(buffered.result.ok, true);
    assert.equal(buffered.result.rows?.count, 0, 'JSON.parse keeps the last: an empty array');
  });

  void it('rows three levels down are not held: a body past the body-size limit goes through whole', async () => {
    let count = 0;
    let bytes = 0;
    const sink: RowSink = {
      format: 'ndjson',
      writePage: (page) => { count += page.length; return Promise.resolve(); },
      writeNdjsonPage: (buffers, rowCount) => { count += rowCount; for (const b of buffers) bytes += b.length; return Promise.resolve(); },
      checkpoint: () => undefined,
      close: () => Promise.resolve(),
    };
    const file = parseHttpFile('# @paging generic items=result.data.page\nGET {{base}}/generated\n');
    const result = await runExchange({ file, requestIndex: 0, prepare: devContext(base), pages: 'first', continuable: false, rowsTo: sink }, { ...ports, timeoutMs: 600_000 });
    assert.equal(result.ok, true, result.problem);
    assert.ok(result.response!.sizeBytes > 256 * 1048576, `${result.response!.sizeBytes} bytes`);
    assert.equal(result.rows?.count, count);
    assert.ok(count > 2_000_000 && bytes > 250 * 1048576, `${count} rows, ${bytes} bytes`);
  });
});

void describe('apiwb run --out with an items= path: exit and file agree', () => {
  let server: LocalServer;
  const pageRows = (p: number): Record<string, unknown>[] => rows(2000, 60).map((r) => ({ ...r, page: p }));
  before(async () => {
    server = await startLocalServer('apiwb-deep-cli-', (req, res) => {
      req.resume();
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/walk') {
        // Three pages, each streamed (past 256 KiB), the next link beside the rows' outer object.
        const p = Number(url.searchParams.get('p') ?? '1');
        const head = p < 3 ? { next_link: `/walk?p=${p + 1}` } : {};
        res.writeHead(200, { 'content-type': 'application/json' }).end(deepBody(pathOf(3), pageRows(p), { head }).text);
        return;
      }
      const body = BODIES[url.pathname];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(body ?? '{}');
    });
  });
  after(() => server.close());

  async function run(path: string, directive: string, all = false): Promise<{ code: number; stdout: string; lines: unknown[] }> {
    const file = join(server.dir, 'deep.http');
    const out = join(server.dir, 'deep.ndjson');
    writeFileSync(file, `# @name deep\n${directive}\nGET {{base}}${path}\n`);
    rmSync(out, { force: true });
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, ...(all ? ['--all-pages'] : [])]);
    const lines = (existsSync(out) ? readFileSync(out, 'utf8') : '').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
    return { code: r.code, stdout: r.stdout + r.stderr, lines };
  }

  void it('the rows at the path are written and counted; every fault exits 1 with no row written', async () => {
    const good = await run('/d4', '# @paging none items=result.data.page.rows');
    assert.equal(good.code, 0, good.stdout);
    assert.deepEqual(good.lines, LIST);
    assert.match(good.stdout, new RegExp(`${LIST.length} rows`));
    for (const path of ['/object-at-path', '/array-in-the-middle', '/missing', '/array-body', '/twice-after']) {
      const bad = await run(path, '# @paging generic items=result.data.page');
      assert.equal(bad.code, 1, `${path}: ${bad.stdout}`);
      assert.deepEqual(bad.lines, [], `${path}: no row written`);
    }
  });

  void it('a walk of three pages, each page\'s rows three levels down, streamed page by page', async () => {
    const walked = await run('/walk?p=1', '# @paging generic items=result.data.page', true);
    assert.equal(walked.code, 0, walked.stdout);
    assert.deepEqual(walked.lines, [...pageRows(1), ...pageRows(2), ...pageRows(3)]);
  });
});
