// Rows one or two levels down of an object body stream as they arrive (issue 37): the arrays of the body
// are cut out as their bytes come (src/core/json/arrayLanes.ts), their rows split while they arrive and
// kept only while the one rows rule may choose them (src/core/paging/laneRows.ts). Oracles: JSON.parse of
// the whole body and the rule (rows.ts); for a body cut at any point, JSON.parse of the rows fully received
// (each array's rows whose last byte came) and the same rule. Through readAnywhere directly, with a sink
// page written while the rows arrive, and through the exchange to a real NDJSON file over HTTP.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { engagementService } from '../../src/core/catalog/engagement';
import { openNdjsonSink } from '../../src/core/export/ndjsonSink';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { ArrayLanes } from '../../src/core/json/arrayLanes';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { HELD as HELD_BOUND } from '../../src/core/paging/heldBody';
import { rowsRule } from '../../src/core/paging/rows';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { devContext } from '../unit/exchangeContext';
import { oracleAt, pages, type Built } from './laneReads';

const rule = rowsRule('none', {});
const row = (i: number, pad = 0): Record<string, unknown> => ({ id: i, name: `row ${i}${'x'.repeat(pad)}`, note: i % 5 === 0 ? 'a "quoted" \\ [value] {x}' : 'plain', tags: ['t', i, { deep: [i] }] });
const rows = (n: number, pad = 0): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => row(i, pad));

/**
 * A body built from parts, with where each row of each array ends: the oracle of a cut. Arrays are
 * given as [path, rows]; other fields as values. Paths one or two levels down.
 */
function build(fields: readonly (readonly [string, unknown] | readonly ['rows', string[], unknown[]])[]): Built {
  let text = '';
  const ends: Built['ends'] = [];
  const writeValue = (path: string[], value: unknown): void => {
    text += '[';
    (value as unknown[]).forEach((r, i) => {
      if (i > 0) text += ',';
      text += JSON.stringify(r);
      ends.push({ path, end: Buffer.byteLength(text), row: r });
    });
    text += ']';
  };
  text += '{';
  fields.forEach((f, i) => {
    if (i > 0) text += ',';
    if (f[0] === 'rows') {
      const [, path, value] = f as readonly ['rows', string[], unknown[]];
      if (path.length === 1) {
        text += `${JSON.stringify(path[0])}:`;
        writeValue(path, value);
      } else {
        text += `${JSON.stringify(path[0])}:{"before":1,${JSON.stringify(path[1])}:`;
        writeValue(path, value);
        text += ',"after":"]}"}';
      }
    } else text += `${JSON.stringify(f[0])}:${JSON.stringify(f[1])}`;
  });
  text += '}';
  return { text, ends };
}

/** readAnywhere over `text` in chunks of `step`, cut after `cut` bytes (the read then fails): the rows written. */
async function readCut(text: string, cut: number, step: number, how: 'throw' | 'end'): Promise<{ lines: unknown[]; error: unknown; dropped: number }> {
  const bytes = Buffer.from(text).subarray(0, cut);
  const written: string[] = [];
  const sink = pages();
  let error: unknown;
  try {
    await readAnywhere(async (each) => {
      for (let i = 0; i < bytes.length; i += step) await each(bytes.subarray(i, i + step));
      if (how === 'throw') throw new Error('connection cut');
    }, (body) => rule.find(body), (b) => { written.push(Buffer.concat(b).toString('utf8')); return Promise.resolve(); }, true, sink.tentative);
  } catch (e) {
    error = e;
  }
  const lines = [...sink.kept, ...written].join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  return { lines, error, dropped: sink.dropped };
}

// Each past the size held whole (256 KiB); the first array of TWO past the 1 MiB kept in memory.
const WRAPPED = build([['Status', 'ok'], ['rows', ['Data'], rows(3000, 60)], ['Errors', []]]);
const TWO = build([['rows', ['Few'], rows(1500, 700)], ['rows', ['Many'], rows(2500)], ['Tail', { a: [1, 2] }]]);
const NESTED = build([['Meta', { n: 1 }], ['rows', ['Outer', 'Items'], rows(2500, 100)], ['rows', ['Side'], rows(30)]]);

void describe('rows one or two levels down stream as they arrive, by the one rows rule', () => {
  for (const [name, built] of [['wrapped', WRAPPED], ['two arrays', TWO], ['two levels down', NESTED]] as const) {
    void it(`${name}: whole, the rows JSON.parse and the rule find, whatever the chunk size`, async () => {
      const expected = rule.find(JSON.parse(built.text));
      assert.ok(expected.ok && expected.rows.length > 1000);
      for (const step of [1 << 16, 4093, 997]) {
        const got = await readCut(built.text, Buffer.byteLength(built.text), step, 'end');
        assert.equal(got.error, undefined);
        assert.deepEqual(got.lines, expected.rows, `chunks of ${step}`);
      }
    });

    void it(`${name}: cut at any point keeps exactly the rows fully received that the rule picks`, async () => {
      const size = Buffer.byteLength(built.text);
      const cuts = Array.from({ length: 60 }, (_, i) => Math.floor((size * (i + 1)) / 61)).concat(built.ends.slice(0, 40).map((e) => e.end), built.ends.slice(-3).map((e) => e.end - 1));
      for (const cut of cuts) {
        for (const how of ['throw', 'end'] as const) {
          const got = await readCut(built.text, cut, 8191, how);
          assert.ok(got.error instanceof Error, `cut at ${cut}: fails`);
          assert.deepEqual(got.lines, oracleAt(built, cut), `cut at ${cut} (${how})`);
        }
      }
    });
  }

  void it('a larger array after the first drops the page written while the first arrived', async () => {
    const got = await readCut(TWO.text, Buffer.byteLength(TWO.text), 1 << 16, 'end');
    assert.equal(got.dropped, 1, 'the first array\'s tentative page was dropped');
    assert.deepEqual(got.lines, rows(2500));
  });

  void it('a body broken inside an array keeps the rows before the fault', async () => {
    const text = WRAPPED.text.replace('{"id":2000,', '{"id":2000,,');
    const got = await readCut(text, Buffer.byteLength(text), 4096, 'end');
    // Said at its byte in the body as it came (the array's content is read apart from the rest).
    assert.match(String(got.error), new RegExp(`malformed JSON at byte ${text.indexOf('{"id":2000,,') + '{"id":2000,'.length}:`));
    assert.deepEqual(got.lines, rows(2000, 60));
  });

  void it('a body broken after an array says the fault at its byte in the body', async () => {
    const text = `${WRAPPED.text.slice(0, -1)},"Late":tru}`;
    const got = await readCut(text, Buffer.byteLength(text), 4096, 'end');
    assert.match(String(got.error), new RegExp(`malformed JSON at byte ${text.length - 1}:`));
  });

  void it('the cut follows strings, escapes and keys across chunk boundaries', () => {
    const text = '{"a\\"[":[1,"]\\\\",{"b":[2]}],"E":[3],"o":{"k\\u0041":["x\\"]"],"n":{"z":[4]}},"s":"[{"}';
    for (let step = 1; step <= text.length; step++) {
      const cut = new ArrayLanes(new Set(['E']));
      const seen: string[] = [];
      let inside = '';
      let outside = '';
      const bytes = Buffer.from(text);
      for (let i = 0; i < bytes.length; i += step) {
        cut.push(bytes.subarray(i, i + step), {
          outside: (b) => { outside += b.toString(); },
          inside: (b) => { inside += b.toString(); },
          open: (k) => seen.push(k.join('.')),
          close: () => { inside += '|'; },
        });
      }
      assert.deepEqual(seen, ['a"[', 'o.kA'], `chunks of ${step}`);
      assert.equal(inside, '1,"]\\\\",{"b":[2]}|"x\\"]"|', `chunks of ${step}`);
      assert.equal(outside, '{"a\\"[":[],"E":[3],"o":{"k\\u0041":[],"n":{"z":[4]}},"s":"[{"}', `chunks of ${step}`);
    }
  });
});

const HELD = build([['Status', 'ok'], ['rows', ['Data'], rows(12_000, 60)]]);

void describe('rows one level down to a real --out file over HTTP', () => {
  let server: Server;
  let heldFile = '';
  let sizeWhenReleased = -1;
  let base = '';
  let dir = '';
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([engagementService]), timeoutMs: 20_000, guard: new SecretBindings() };
  // Bodies past the held bound (heldBody.ts) are the ones streamed: these, of about 1 MB, are made so.
  const heldBound = HELD_BOUND.bytes;
  before(async () => {
    HELD_BOUND.bytes = 64 * 1024;
    dir = mkdtempSync(join(tmpdir(), 'apiwb-lanes-'));
    server = createServer((req, res) => {
      if (req.url === '/held') {
        // Most of the body, then the rest only once rows are in the file (or after 5 s, to fail, not hang).
        const text = Buffer.from(HELD.text);
        const half = Math.floor(text.length * 0.8);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
        res.write(text.subarray(0, half));
        let release = (): void => undefined;
        const timer = setTimeout(() => release(), 5_000);
        const poll = setInterval(() => {
          if (res.destroyed) clearInterval(poll);
          else if (existsSync(heldFile) && statSync(heldFile).size > 1048576) release();
        }, 5);
        release = () => {
          clearTimeout(timer);
          clearInterval(poll);
          release = () => undefined;
          sizeWhenReleased = existsSync(heldFile) ? statSync(heldFile).size : 0;
          res.end(text.subarray(half));
        };
        return;
      }
      const built = req.url === '/two' ? TWO : WRAPPED;
      const text = Buffer.from(built.text);
      const cutAt = req.url === '/cut' ? Math.floor(text.length / 2) : text.length;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
      res.write(text.subarray(0, cutAt), () => {
        if (cutAt < text.length) res.socket?.end();
        else res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    HELD_BOUND.bytes = heldBound;
    server.close();
    await closeHttpAgents();
    rmSync(dir, { recursive: true, force: true });
  });

  void it('rows one level down reach the file while the body still arrives', async () => {
    heldFile = join(dir, 'held.ndjson');
    const sink = await openNdjsonSink(heldFile);
    const result = await runExchange({ file: parseHttpFile('GET {{base}}/held\n'), requestIndex: 0, prepare: devContext(base), pages: 'first', continuable: false, rowsTo: sink }, ports);
    await sink.close();
    assert.equal(result.ok, true, result.problem);
    assert.ok(sizeWhenReleased > 1048576, `the file held ${sizeWhenReleased} bytes before the last fifth of the body was sent`);
    const lines = readFileSync(heldFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
    assert.deepEqual(lines, rows(12_000, 60));
  });

  for (const path of ['/wrapped', '/two', '/cut']) {
    void it(`${path}: the file holds the rows the rule picks (received whole)`, async () => {
      const file = join(dir, `${path.slice(1)}.ndjson`);
      const sink = await openNdjsonSink(file);
      const result = await runExchange({ file: parseHttpFile(`GET {{base}}${path}\n`), requestIndex: 0, prepare: devContext(base), pages: 'first', continuable: false, rowsTo: sink }, ports);
      await sink.close();
      const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
      const built = path === '/two' ? TWO : WRAPPED;
      if (path === '/cut') {
        assert.equal(result.ok, false);
        assert.deepEqual(lines, oracleAt(built, Math.floor(Buffer.byteLength(built.text) / 2)));
      } else {
        assert.equal(result.ok, true, result.problem);
        const expected = rule.find(JSON.parse(built.text));
        assert.ok(expected.ok);
        assert.deepEqual(lines, expected.rows);
        assert.equal(result.rows?.count, expected.rows.length);
      }
    });
  }
});
