// The rows rule reads a path first as one literal key, then dotted (rows.ts readPath: `@odata.nextLink`,
// `result.rows`). A response past the panel's bound is shown from disk: its table's first rows are put
// back into the body's skeleton at the rows' path (spilledView.ts withRowsAt), which must read that path
// as the rule does, or the table shows the skeleton's stand-ins instead of the rows.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import type { NamedResponse } from '../../src/core/httpfile/resolve';
import { readPath } from '../../src/core/paging/rows';
import { spilledViewModel, withRowsAt } from '../../src/core/results/spilledView';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { Redactor } from '../../src/core/secrets/redact';
import { KeptResponse } from '../../src/extension/send/keptResponse';
import { devContext } from './exchangeContext';

const ROWS = Array.from({ length: 60_000 }, (_, i) => ({ id: i, name: `row ${i}` }));
let server: Server;
let base = '';

before(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ 'result.rows': ROWS }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeHttpAgents();
});

void test('withRowsAt puts the rows where readPath reads them, a key with a dot included', () => {
  const rows = [{ id: 1 }, { id: 2 }];
  assert.deepEqual(readPath(withRowsAt({ 'result.rows': [] }, 'result.rows', rows), 'result.rows'), rows);
});

void test('withRowsAt takes the key with a dot over the dotted path when a body has both, as readPath does', () => {
  const rows = [{ id: 1 }];
  const stand = [{}, {}];
  const nested = { rows: [{ id: 'nested' }] };
  const put = withRowsAt({ 'result.rows': stand, result: nested }, 'result.rows', rows) as Record<string, unknown>;
  assert.deepEqual(readPath(put, 'result.rows'), rows);
  assert.deepEqual(put['result'], nested, 'the dotted path\'s array is not the rows: left as it was');
  assert.deepEqual(readPath(withRowsAt({ result: { rows: stand } }, 'result.rows', rows), 'result.rows'), rows, 'without the key, the dotted path');
});

void test('a spilled response whose rows are under a key with a dot shows its first rows, not stand-ins', async () => {
  const kept = new KeptResponse(1 << 20);
  const remember = new Map<string, NamedResponse>();
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 30_000, guard: new SecretBindings() };
  const result = await runExchange({
    file: parseHttpFile('GET {{base}}/rows\n'), requestIndex: 0, prepare: devContext(base), remember, pages: 'first', steps: [], rowsTo: kept.rows, keepBodyWithin: kept.spillAt,
  }, kept.ports(ports));
  const settled = await kept.settle(result, [], ports.catalog, remember);
  assert.ok(settled.stores, 'the body is past the bound: kept on disk');
  assert.equal(settled.result.rows?.path, 'result.rows');
  const { viewModel, source } = await spilledViewModel(settled.result, settled.result.response!, settled.stores, { requestKey: 'k', title: 't', id: 'dotted', redactor: new Redactor([]) });
  try {
    assert.equal(viewModel.table?.pagedRows, ROWS.length);
    assert.deepEqual(viewModel.table?.rows.slice(0, 2), ROWS.slice(0, 2), 'the table\'s first rows are the response\'s');
    assert.ok((viewModel.table?.rows.length ?? 0) <= 200, `the view model holds ${viewModel.table?.rows.length} rows, not the first ones only`);
  } finally {
    await source.dispose();
  }
});
