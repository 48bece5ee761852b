// History holds no secret (README: nothing the product writes holds one). A token an earlier response
// gave (its `access_token` field, which the Redactor masks in that response) and a later request sends
// in a header of any name (or a query parameter of any name) is the same secret: History must not keep it
// in the clear either.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { HistoryStore } from '../../src/core/history/store';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import type { NamedResponse } from '../../src/core/httpfile/resolve';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { Redactor } from '../../src/core/secrets/redact';
import { devContext } from './exchangeContext';
import { memoryHistoryFiles } from './memoryHistoryFiles';

const TOKEN = 'tok-3f9a1c7e5b2d4a60';
let server: Server;
let base = '';

before(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/login' ? JSON.stringify({ access_token: TOKEN, token_type: 'bearer', expires_in: 3600 }) : '{"orders": []}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeHttpAgents();
});

void test('a token from an earlier response, sent in a header of any name or a query parameter, is not kept in History', async () => {
  const file = parseHttpFile([
    '# @name login',
    'POST {{base}}/login',
    'Content-Type: application/json',
    '',
    '{"user": "u"}',
    '',
    '###',
    'GET {{base}}/orders',
    'X-Trace: {{login.response.body.$.access_token}}',
    '',
    '###',
    'GET {{base}}/orders?ref={{login.response.body.$.access_token}}',
    '',
  ].join('\n'));
  const guard = new SecretBindings();
  const remember = new Map<string, NamedResponse>();
  const prepare = { ...devContext(base), responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard };
  const files = memoryHistoryFiles();
  // The editor's History redactor (workbench.ts): every secret stored, and every value the guard holds.
  const history = new HistoryStore(files, () => new Redactor(guard.values()));
  for (const requestIndex of [0, 1, 2]) {
    const result = await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports);
    assert.ok(result.request && result.response, `request ${requestIndex} was sent`);
    await history.record({ request: result.request, ...(result.response ? { response: result.response } : {}) });
  }
  const login = files.contents.get([...files.contents.keys()].find((name) => name.endsWith('.body') && files.contents.get(name)!.includes('access_token'))!);
  assert.ok(login && !login.includes(TOKEN), 'the login response is kept with its access_token masked');
  const holding = [...files.contents].filter(([, text]) => text.includes(TOKEN)).map(([name]) => name);
  assert.deepEqual(holding, [], 'no History file holds the token in the clear');
});
