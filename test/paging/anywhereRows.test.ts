// One streaming path for every response body (issue 37): a single response with no paging style, read
// by the exchange with its rows streamed to a sink as they arrive (apiwb run's --out), gives the same
// rows, count and business verdict as the same body read whole and parsed — the oracle is JSON.parse of
// the whole body and the one rows rule (rows.ts) — for every shape, over real HTTP on 127.0.0.1. And a
// body cut or broken mid-stream keeps exactly the rows fully received.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { detectBusinessErrors } from '../../src/core/catalog/businessErrors';
import { engagementService } from '../../src/core/catalog/engagement';
import type { RowSink } from '../../src/core/export/sink';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { rowsRule } from '../../src/core/paging/rows';
import { businessFailureWords, runExchange, type ExchangePorts, type ExchangeResult } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { devContext } from '../unit/exchangeContext';
import { collectingSink } from './laneReads';

const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([engagementService]), timeoutMs: 20_000, guard: new SecretBindings() };

const row = (i: number): Record<string, unknown> => ({ id: i, name: `row ${i}`, note: i % 7 === 0 ? 'a "quoted" \\ value\nwith a break' : 'plain', amount: i * 1.5, ok: i % 2 === 0, tags: ['x', i] });
const rows = (n: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => row(i));
const bigObject = (n: number, tail: Record<string, unknown>): Record<string, unknown> => Object.fromEntries([...Array.from({ length: n }, (_, i) => [`r${i}`, row(i)] as const), ...Object.entries(tail)]);

/** Bodies by path: small ones are held whole, large ones (> 256 KiB) stream; every shape both ways. */
const BODIES: Record<string, string> = {
  '/array': JSON.stringify(rows(6000)),
  '/array-small': JSON.stringify(rows(20)),
  '/wrapped': JSON.stringify({ ResponseStatus: false, Errors: [{ ErrorCode: 1, ErrorDescription: 'Missing mandatory fields' }], Data: rows(5000) }),
  '/wrapped-small': JSON.stringify({ Data: rows(10) }),
  '/numbers': JSON.stringify(Array.from({ length: 90_000 }, (_, i) => i * 3 + 0.25)),
  '/object': JSON.stringify(bigObject(5000, { Success: false, Message: 'the export is not ready' })),
  '/string': JSON.stringify('ABCDEFGHIJ'.repeat(60_000)),
  // The rule weighs every array: the larger one, read after a smaller one, holds the rows.
  '/two-arrays': JSON.stringify({ Few: rows(3), Many: rows(5000), Errors: [] }),
  // Rows two levels down in a field too large to keep (the skeleton cannot say: parsed whole).
  '/two-levels': JSON.stringify({ Meta: { Items: rows(12_000), Note: 'x' } }),
  // Pretty-printed rows (each a row over several lines) one level down.
  '/pretty': JSON.stringify({ value: rows(3000) }, null, 2),
};

/** A body sent in small pieces, then the connection cut after `cutAt` bytes (the length promised whole). */
const CUT = JSON.stringify(rows(4000));
const MALFORMED = `${JSON.stringify(rows(3000)).slice(0, -1)},{"id":1,"name":x}]`;

/** Past the 256 MiB body-size limit: what streams to a sink is not held, so the limit is not its. */
const GENERATED_BYTES = 300 * 1048576;
let server: Server;
let base = '';

async function exchange(path: string, streamed: boolean): Promise<{ result: ExchangeResult; rows: unknown[] }> {
  const file = parseHttpFile(`GET {{base}}${path}\n`);
  const sink = collectingSink();
  const result = await runExchange({ file, requestIndex: 0, prepare: devContext(base), pages: 'first', continuable: false, ...(streamed ? { rowsTo: sink } : {}) }, ports);
  return { result, rows: streamed ? sink.lines.map((l) => JSON.parse(l) as unknown) : [...(result.rows?.items ?? [])] };
}

function oracle(text: string): { rows: readonly unknown[]; failures: string[] } {
  const body = JSON.parse(text) as unknown;
  const found = rowsRule('none', {}).find(body);
  const business = detectBusinessErrors(body);
  return { rows: found.ok ? found.rows : [], failures: business.failed ? business.failures.map((f) => businessFailureWords(f, business.catalogue)) : [] };
}

void describe('one streaming path: every shape gives the same rows streamed as buffered', () => {
  before(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/generated') {
        // A generated array of rows past the body-size limit (256 MiB), never held by this server either.
        const block = Buffer.from(`${Array.from({ length: 4096 }, (_, i) => JSON.stringify(row(i))).join(',')},`);
        const blocks = Math.ceil(GENERATED_BYTES / block.length);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        let sent = 0;
        const next = (): void => {
          while (sent < blocks) {
            sent++;
            if (!res.write(block)) return void res.once('drain', next);
          }
          res.end('{"id":"last"}]');
        };
        next();
        return;
      }
      if (path === '/cut' || path === '/malformed') {
        const text = Buffer.from(path === '/cut' ? CUT : MALFORMED);
        const cutAt = path === '/cut' ? Math.floor(text.length * 0.6) : text.length;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length });
        let at = 0;
        const next = (): void => {
          while (at < cutAt) {
            const end = Math.min(cutAt, at + 7919);
            const more = res.write(text.subarray(at, end));
            at = end;
            if (!more) return void res.once('drain', next);
          }
          // Cut once every byte written has gone (a destroy could drop some): the body ends short.
          if (path === '/cut') res.socket?.end();
          else res.end();
        };
        next();
        return;
      }
      const body = BODIES[path];
      // Large bodies without a declared length too (chunked), as a streaming server sends them.
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(body ?? '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.close();
    await closeHttpAgents();
  });

  for (const path of Object.keys(BODIES)) {
    void it(`${path}: the same rows, count and business verdict as JSON.parse of the whole body`, async () => {
      const expected = oracle(BODIES[path]!);
      for (const streamed of [true, false]) {
        const { result, rows: got } = await exchange(path, streamed);
        const how = streamed ? 'streamed' : 'buffered';
        assert.equal(result.response?.status, 200, how);
        assert.equal(result.rows?.count ?? 0, expected.rows.length, `${how}: count`);
        assert.deepEqual(got, expected.rows, `${how}: rows`);
        assert.deepEqual(result.businessFailures, expected.failures, `${how}: business verdict`);
        assert.equal(result.ok, expected.failures.length === 0, `${how}: ok`);
      }
    });
  }

  void it('a body cut mid-stream keeps exactly the rows fully received, and fails', async () => {
    const { result, rows: got } = await exchange('/cut', true);
    assert.equal(result.ok, false);
    const received = CUT.slice(0, Math.floor(Buffer.byteLength(CUT) * 0.6));
    // The rows whose closing brace arrived: every row of the array up to the last whole one.
    const whole = (JSON.parse(CUT) as unknown[]).filter((_, i) => received.includes(JSON.stringify(row(i)) + ','));
    assert.ok(whole.length > 100 && whole.length < 4000);
    assert.deepEqual(got, whole);
  });

  void it('a body broken mid-stream keeps exactly the rows before the fault', async () => {
    const { rows: got } = await exchange('/malformed', true);
    assert.deepEqual(got, rows(3000));
  });

  void it('rows streamed to a sink are not held: a generated body past the body-size limit goes through whole', async () => {
    let count = 0;
    let bytes = 0;
    const sink: RowSink = {
      format: 'ndjson',
      writePage: (page) => { count += page.length; return Promise.resolve(); },
      writeNdjsonPage: (buffers, rowCount) => { count += rowCount; for (const b of buffers) bytes += b.length; return Promise.resolve(); },
      checkpoint: () => undefined,
      close: () => Promise.resolve(),
    };
    const result = await runExchange({ file: parseHttpFile('GET {{base}}/generated\n'), requestIndex: 0, prepare: devContext(base), pages: 'first', continuable: false, rowsTo: sink }, { ...ports, timeoutMs: 600_000 });
    assert.equal(result.ok, true, result.problem);
    assert.ok(result.response!.sizeBytes > 256 * 1048576, `${result.response!.sizeBytes} bytes`);
    assert.equal(result.rows?.count, count);
    assert.ok(count > 2_000_000 && bytes > 250 * 1048576, `${count} rows, ${bytes} bytes`);
  });

  void it('spills a large object to a temp file of its own, and leaves nothing behind', async () => {
    const spills = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith('apiwb-body-'));
    const before = new Set(spills());
    let seen: string[] = [];
    const watcher = setInterval(() => { seen = [...new Set([...seen, ...spills().filter((n) => !before.has(n))])]; }, 1);
    try {
      await exchange('/two-levels', true);
    } finally {
      clearInterval(watcher);
    }
    assert.deepEqual(spills().filter((n) => !before.has(n)), [], 'removed after');
    assert.ok(seen.length <= 1);
  });
});
