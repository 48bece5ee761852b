// REST Client's own environments name a host, not a URL (`"host": "api.example.com"`, requests written
// `https://{{host}}/…`). A token a sign-in server answers with goes on to that API host, as it goes to one
// the environment names as a URL: the request that writes it sends it there.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import type { NamedResponse } from '../../src/core/httpfile/resolve';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { parseEnvFile, selectEnvironment } from '../../src/core/env';
import { devContext } from './exchangeContext';

const TOKEN = 'tok-3f9a1c7e5b2d4a60';
let signIn: Server;
let api: Server;
let signInUrl = '';
let apiHost = '';
const apiSaw: IncomingHttpHeaders[] = [];

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};

before(async () => {
  api = createServer((req, res) => { apiSaw.push(req.headers); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); });
  apiHost = await listen(api);
  signIn = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: TOKEN, token_type: 'bearer', expires_in: 3600 }));
  });
  signInUrl = `http://${await listen(signIn)}`;
});
after(async () => {
  await new Promise<void>((resolve) => signIn.close(() => resolve()));
  await new Promise<void>((resolve) => api.close(() => resolve()));
  await closeHttpAgents();
});

void test('a sign-in token goes on to the API host an environment names as a host variable', async () => {
  const file = parseHttpFile([
    '# @name login',
    'POST {{auth_url}}/login',
    '',
    '###',
    'GET http://{{host}}/me',
    'Authorization: Bearer {{login.response.body.$.access_token}}',
    '',
  ].join('\n'));
  const environment = selectEnvironment(parseEnvFile(JSON.stringify({ dev: { auth_url: signInUrl, host: apiHost } }), 'http-client.env.json'), 'dev');
  const remember = new Map<string, NamedResponse>();
  const prepare = { ...devContext(signInUrl), environment, responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard: new SecretBindings() };
  for (const requestIndex of [0, 1]) {
    const result = await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports);
    assert.equal(result.ok, true, `request ${requestIndex}: ${result.problem ?? ''}`);
  }
  assert.equal(apiSaw[0]?.authorization, `Bearer ${TOKEN}`);
});
