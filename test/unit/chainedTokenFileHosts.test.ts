// REST Client and httpYac files often name their hosts as file variables (`@auth = …`, `@api = …`), not
// in the env file. A token their sign-in server answers with (a host the environment does not name either)
// is the file's own chain: it goes on to the API host the same file names, as it did before response
// secrets were bound, while one from an environment host still stays with the environment.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import type { NamedResponse } from '../../src/core/httpfile/resolve';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { devContext } from './exchangeContext';
import { listenBase } from '../cli/localServer';

const TOKEN = 'tok-3f9a1c7e5b2d4a60';
let signIn: Server;
let api: Server;
let signInUrl = '';
let apiUrl = '';
const apiSaw: IncomingHttpHeaders[] = [];

before(async () => {
  api = createServer((req, res) => { apiSaw.push(req.headers); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); });
  apiUrl = await listenBase(api);
  signIn = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: TOKEN, token_type: 'bearer', expires_in: 3600 }));
  });
  signInUrl = await listenBase(signIn);
});
after(async () => {
  await new Promise<void>((resolve) => signIn.close(() => resolve()));
  await new Promise<void>((resolve) => api.close(() => resolve()));
  await closeHttpAgents();
});

void test('a token from a sign-in host the file names goes on to the API host the file names', async () => {
  const file = parseHttpFile([
    `@auth = ${signInUrl}`,
    `@api = ${apiUrl}`,
    '',
    '# @name login',
    'POST {{auth}}/login',
    '',
    '###',
    'GET {{api}}/me',
    'Authorization: Bearer {{login.response.body.$.access_token}}',
    '',
  ].join('\n'));
  const remember = new Map<string, NamedResponse>();
  // The environment names a third host only (`base`), as an env file of other services would.
  const prepare = { ...devContext('http://127.0.0.1:9'), responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard: new SecretBindings() };
  for (const requestIndex of [0, 1]) {
    const result = await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports);
    assert.equal(result.ok, true, `request ${requestIndex}: ${result.problem ?? ''}`);
  }
  assert.equal(apiSaw[0]?.authorization, `Bearer ${TOKEN}`);
});
