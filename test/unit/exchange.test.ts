// The one exchange (src/core/run/exchange.ts) over real HTTP on 127.0.0.1: the rows rule, business
// errors with the catalog passed in, an imported operation's paging reaching the walker, a paged first
// page offering more, caller steps adding findings, and a continuation refused when the request changed.
import { SecretBindings } from '../../src/core/secrets/bindings';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bookingService } from '../../src/core/catalog/booking';
import { engagementService } from '../../src/core/catalog/engagement';
import { fundraisingService } from '../../src/core/catalog/fundraising';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { importOpenApiText, withOverlay } from '../../src/core/openapi';
import { DISCARD, runExchange, type ExchangePorts, type ExchangeStep } from '../../src/core/run/exchange';
import { continuationRefusal, continueWalk } from '../../src/core/run/pagedWalk';
import type { PrepareContext } from '../../src/core/run/prepareRequest';
import { devContext } from './exchangeContext';
import { overlapPort } from '../../src/cli/overlapPort';

const CAMPAIGNS = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `campaign ${i + 1}` }));
let server: Server;
let base = '';

const context = (): PrepareContext => devContext(base);

const BASE = [engagementService, fundraisingService, bookingService];
const imported = importOpenApiText(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'openapi', 'campaigns-3.1.json'), 'utf8'), 'campaigns-3.1.json');
const withImport: ExchangePorts = { http: httpClient, catalog: createCatalog(withOverlay(BASE, imported)), timeoutMs: 5000, guard: new SecretBindings() };
const contractsOnly: ExchangePorts = { http: httpClient, catalog: createCatalog(BASE), timeoutMs: 5000, guard: new SecretBindings() };

const FILE = parseHttpFile([
  '### campaigns', '# @name campaigns', 'GET {{base}}/v1/campaigns?page=1&per_page=2', '',
  '### survey', 'POST {{base}}/api/SurveyApi/AddChoiceQuestion', 'Content-Type: application/json', '', '{}', '',
  '### errors only', 'GET {{base}}/errors-only', '',
  '### busy', '# @paging generic next=next_link', 'POST {{base}}/busy', '',
  '### busy once', 'GET {{base}}/busy-once', '',
].join('\n'));
let busyHits = 0;

void describe('the exchange', () => {
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('Content-Type', 'application/json');
      if (url.pathname === '/v1/campaigns') {
        const page = Number(url.searchParams.get('page') ?? 1);
        const size = Number(url.searchParams.get('per_page') ?? 2);
        res.end(JSON.stringify({ total: CAMPAIGNS.length, page, data: CAMPAIGNS.slice((page - 1) * size, page * size) }));
      } else if (url.pathname === '/busy-once') {
        busyHits++;
        if (busyHits === 1) res.writeHead(429, { 'Retry-After': '0' });
        res.end(busyHits === 1 ? '{"Message":"slow down"}' : '{"value":[{"id":1}]}');
      } else if (url.pathname === '/busy') {
        busyHits++;
        res.writeHead(429, { 'Retry-After': '30' });
        res.end('{"Message":"slow down"}');
      } else if (url.pathname === '/api/SurveyApi/AddChoiceQuestion') {
        res.end(JSON.stringify({ ID: 0, ResponseStatus: false, Errors: [{ ErrorCode: 1, ErrorDescription: 'Missing mandatory fields' }] }));
      } else {
        res.end(JSON.stringify({ Response: true, Errors: [{ Code: 7, Message: 'not rows' }] }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await closeHttpAgents();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  void it("an imported operation's paging reaches the walker: every page, the rows at its items path", async () => {
    const all = await runExchange({ file: FILE, requestIndex: 0, prepare: context(), pages: 'all' }, withImport);
    assert.equal(all.ok, true, all.problem);
    assert.deepEqual([all.walk?.verdict, all.rows?.count, all.pages], ['complete', 5, 3]);
    assert.equal(all.walk?.checkpoint.plan.options['items'], 'data');
  });

  void it('resuming a walk whose checkpoint is already at its end sends nothing and is refused: a finished walk is not resumed', async () => {
    const all = await runExchange({ file: FILE, requestIndex: 0, prepare: context(), pages: 'all' }, withImport);
    const again = await runExchange({ file: FILE, requestIndex: 0, prepare: context(), pages: 'all', walk: { resumeFrom: all.walk!.checkpoint } }, withImport);
    assert.deepEqual([again.ok, again.walk?.failure?.kind, again.walk?.resumeAt, again.response], [false, 'resume', undefined, undefined]);
    assert.match(again.problem ?? '', /finished walk is not resumed.*Nothing was sent/);
  });

  void it('a plain send of a paged request is its first page, with the paging cursor offering more', async () => {
    const remember = new Map();
    const first = await runExchange({ file: FILE, requestIndex: 0, prepare: context(), pages: 'first', remember }, withImport);
    assert.equal(first.ok, true);
    assert.deepEqual([first.rows?.path, first.rows?.count, first.rows?.items.length], ['data', 2, 2]);
    assert.ok(first.paging, 'the cursor is there');
    assert.deepEqual([first.paging.more, first.paging.checkpoint.pages, first.paging.checkpoint.rows, first.paging.plan.style], [true, 1, 2, 'generic']);
    assert.ok(remember.has('campaigns'), 'the named response is recorded');

    const next = await continueWalk({ cursor: first.paging, file: FILE, requestIndex: 0, prepare: context(), pages: 'next' }, withImport);
    assert.ok(next.ok);
    assert.deepEqual([next.rows.map((r) => (r as { id: number }).id), next.cursor.checkpoint.rows, next.cursor.more], [[3, 4], 4, true]);
    const rest = await continueWalk({ cursor: next.cursor, file: FILE, requestIndex: 0, prepare: context(), pages: 'all' }, withImport);
    assert.ok(rest.ok);
    assert.deepEqual([rest.walk.verdict, rest.cursor.checkpoint.rows, rest.cursor.more], ['complete', 5, false]);
  });

  void it('a continuation is refused when the request now goes elsewhere, or in another environment', () => {
    const cursor = { plan: { style: 'generic' as const, options: {}, source: 'catalog' as const }, checkpoint: { version: 1 as const, plan: { style: 'generic' as const, options: {}, source: 'catalog' as const }, pages: 1, rows: 2, bytes: 1, done: false }, first: { method: 'GET', url: 'https://a.test/x', headers: {} }, more: true, environment: 'dev' };
    assert.match(continuationRefusal(cursor, { method: 'GET', url: 'https://b.test/x', headers: {} }) ?? '', /changed in the file/);
    assert.equal(continuationRefusal(cursor, { method: 'GET', url: 'https://a.test/x?page=3', headers: {} }), undefined);
    assert.match(continuationRefusal(cursor, { method: 'GET', url: 'https://a.test/x?page=3', headers: {} }, 'production') ?? '', /paged in environment 'dev'/);
  });

  void it('business errors use the catalog passed in: SurveyApi code 1 with its meaning, not ok', async () => {
    const result = await runExchange({ file: FILE, requestIndex: 1, prepare: context(), pages: 'first' }, contractsOnly);
    assert.equal(result.response?.status, 200);
    assert.equal(result.ok, false);
    assert.match(result.businessFailures[0] ?? '', /^code 1 Missing mandatory fields \(SurveyApi: /);
    assert.equal(result.rows, undefined, 'an error list is not rows');
  });

  void it('a body whose only array is a business-error list has no rows', async () => {
    const result = await runExchange({ file: FILE, requestIndex: 2, prepare: context(), pages: 'first' }, contractsOnly);
    assert.equal(result.rows, undefined);
    assert.equal(result.paging, undefined, 'an unpaged response has no paging cursor');
  });

  void it('a send follows the walk\'s rule: a 429 with Retry-After is waited out and the same request sent again; the answer shown is the one after', async () => {
    busyHits = 0;
    const result = await runExchange({ file: FILE, requestIndex: 4, prepare: context(), pages: 'first' }, contractsOnly);
    assert.equal(busyHits, 2, 'the refusal and the request again');
    assert.equal(result.response?.status, 200);
    assert.equal(result.ok, true);
    assert.equal(result.walk?.waits, 1);
  });

  void it('a send whose 429 asks a wait beyond the bound is shown as it came, not waited on nor sent again, and says why', async () => {
    busyHits = 0;
    const result = await runExchange({ file: FILE, requestIndex: 3, prepare: context(), pages: 'first' }, { ...contractsOnly, maxWaitMs: 10_000 });
    assert.equal(result.response?.status, 429);
    assert.equal(busyHits, 1, 'one request');
    assert.ok(result.notices.some((n) => /asks to wait 30 s, beyond the 10 s left/.test(n)), result.notices.join('\n'));
    assert.equal(result.ok, false);
    assert.equal(result.paging, undefined, 'no page was kept, so nothing to continue');
  });

  void it("the CLI's overlap port: handedOver when the request is handed over, received with the body size once it is whole; the examination waits for received, and that wait is measured apart", async () => {
    // Wide margins: a cold first request on a loaded machine takes tens of milliseconds of its own.
    const WAIT_MS = 150;
    // A streamed (counted) first page, and an unpaged response read whole.
    for (const [requestIndex, ports, rowsTo] of [[0, withImport, DISCARD], [1, contractsOnly, undefined]] as const) {
      const events: string[] = [];
      const started = performance.now();
      const wrapped = overlapPort(ports.http, {
        handedOver: () => events.push('sent'),
        received: (bytes) => {
          events.push(`received ${bytes}`);
          // Work done in the call itself (a run starts its next request there) is not this response's time either.
          const busyUntil = performance.now() + WAIT_MS / 2;
          while (performance.now() < busyUntil) { /* the call's own work */ }
          return new Promise<void>((resolve) => setTimeout(() => {
            events.push('waited');
            resolve();
          }, WAIT_MS));
        },
      });
      const result = await runExchange({ file: FILE, requestIndex, prepare: context(), pages: 'first', ...(rowsTo ? { rowsTo } : {}) }, { ...ports, http: wrapped.http });
      const took = performance.now() - started;
      assert.equal(result.response?.status, 200);
      assert.deepEqual(events, ['sent', `received ${result.response.sizeBytes}`, 'waited'], `request ${requestIndex}`);
      assert.ok(result.response.sizeBytes > 0);
      assert.ok(took >= WAIT_MS, `request ${requestIndex}: the exchange ended after the wait (${took} ms)`);
      assert.ok(wrapped.waitedMs() >= WAIT_MS, `request ${requestIndex}: the wait is measured (${wrapped.waitedMs()} ms)`);
      assert.ok(result.response.timing.totalMs - wrapped.waitedMs() < WAIT_MS / 2, `request ${requestIndex}: its time less the wait is the response's (${result.response.timing.totalMs} ms)`);
      assert.ok(result.response.timing.totalMs >= result.response.timing.firstByteMs);
    }
  });

  void it("the overlap port's received is not called when the body never came whole; handedOver not when nothing was sent", async () => {
    const events: string[] = [];
    const dropped = parseHttpFile(`GET ${base.replace(/:\d+$/, ':1')}/nothing-listens\n`);
    const told = (sent: string) => ({ ...contractsOnly, http: overlapPort(httpClient, { handedOver: () => events.push(sent), received: () => { events.push('received'); return undefined; } }).http });
    const failed = await runExchange({ file: dropped, requestIndex: 0, prepare: context(), pages: 'first' }, told('sent'));
    assert.equal(failed.ok, false);
    assert.deepEqual(events, ['sent'], 'handed over, never received');
    const unresolved = parseHttpFile('GET {{nowhere}}/x\n');
    const refused = await runExchange({ file: unresolved, requestIndex: 0, prepare: context(), pages: 'first' }, told('sent again'));
    assert.equal(refused.ok, false);
    assert.deepEqual(events, ['sent'], 'an unresolved variable sends nothing');
  });

  void it("a caller's step adds findings; a failure finding makes the exchange not ok", async () => {
    const step: ExchangeStep = {
      name: 'assertions',
      run: (view) => [{ step: 'assertions', severity: view.response.status === 200 ? 'failure' : 'note', message: `status was ${view.response.status}` }],
    };
    const result = await runExchange({ file: FILE, requestIndex: 0, prepare: context(), pages: 'first', steps: [step] }, withImport);
    assert.equal(result.ok, false);
    assert.deepEqual(result.findings, [{ step: 'assertions', severity: 'failure', message: 'status was 200' }]);
  });
});
