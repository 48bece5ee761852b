// A token a request takes from an earlier response (`{{login.response.body.$.access_token}}`, the chained
// sign-in of REST Client and httpYac files) is a credential whatever header carries it: a redirect to
// another origin must not take it there, as it does not take the Authorization header.
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
import { devContext } from './exchangeContext';

const TOKEN = 'tok-3f9a1c7e5b2d4a60';
let home: Server;
let other: Server;
let homeUrl = '';
let otherUrl = '';
const otherSaw: IncomingHttpHeaders[] = [];

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

before(async () => {
  other = createServer((req, res) => { otherSaw.push(req.headers); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); });
  otherUrl = await listen(other);
  home = createServer((req, res) => {
    if (req.url === '/login') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: TOKEN, token_type: 'bearer', expires_in: 3600 }));
      return;
    }
    res.writeHead(302, { location: `${otherUrl}/landing` });
    res.end();
  });
  homeUrl = await listen(home);
});
after(async () => {
  await new Promise<void>((resolve) => home.close(() => resolve()));
  await new Promise<void>((resolve) => other.close(() => resolve()));
  await closeHttpAgents();
});

void test('a token from an earlier response, in a header of any name, is not carried by a redirect to another origin', async () => {
  const file = parseHttpFile([
    '# @name login',
    'POST {{base}}/login',
    'Content-Type: application/json',
    '',
    '{"user": "u"}',
    '',
    '###',
    'GET {{base}}/orders',
    'Authorization: Bearer {{login.response.body.$.access_token}}',
    'X-Ticket: {{login.response.body.$.access_token}}',
    '',
  ].join('\n'));
  // As a run keeps them: the named responses the next request resolves against.
  const remember = new Map<string, NamedResponse>();
  const prepare = { ...devContext(homeUrl), responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard: new SecretBindings() };
  for (const requestIndex of [0, 1]) {
    await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports);
  }
  assert.equal(otherSaw.length, 1, 'the redirect was followed (a GET without a body)');
  const carried = Object.entries(otherSaw[0]!).filter(([, value]) => String(value).includes(TOKEN)).map(([name]) => name);
  assert.deepEqual(carried, [], `${otherUrl} received the home origin's token in: ${carried.join(', ')}`);
});
