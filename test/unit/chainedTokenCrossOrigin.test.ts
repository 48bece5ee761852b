// A token a request takes from an earlier response (`{{login.response.body.$.access_token}}`, the chained
// sign-in of REST Client and httpYac files) is a credential whatever header carries it: a redirect to
// another origin must not take it there, as it does not take the Authorization header. It is a secret of
// the login's origin, of the origins the environment names and of each request of the file that writes it
// (prepareRequest, bindReadSecrets): a sign-in server's token goes on to the API the file sends it to, in a
// header, a query parameter or a JSON body, read directly or through a file variable; no hop takes it on.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import type { NamedResponse } from '../../src/core/httpfile/resolve';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { Redactor } from '../../src/core/secrets/redact';
import { parseEnvFile, selectEnvironment } from '../../src/core/env';
import { devContext } from './exchangeContext';
import { listenBase } from '../cli/localServer';

const TOKEN = 'tok-3f9a1c7e5b2d4a60';
let home: Server;
let other: Server;
let homeUrl = '';
let otherUrl = '';
const otherSaw: { url: string; headers: IncomingHttpHeaders }[] = [];

before(async () => {
  other = createServer((req, res) => { otherSaw.push({ url: req.url ?? '', headers: req.headers }); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); });
  otherUrl = await listenBase(other);
  home = createServer((req, res) => {
    if (req.url === '/login') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: TOKEN, token_type: 'bearer', expires_in: 3600 }));
      return;
    }
    res.writeHead(302, { location: `${otherUrl}/landing` });
    res.end();
  });
  homeUrl = await listenBase(home);
});
after(async () => {
  await new Promise<void>((resolve) => home.close(() => resolve()));
  await new Promise<void>((resolve) => other.close(() => resolve()));
  await closeHttpAgents();
});

void test('a token from an earlier response, in a header of any name, is not carried by a redirect to another origin', async () => {
  otherSaw.length = 0;
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
  const carried = Object.entries(otherSaw[0]!.headers).filter(([, value]) => String(value).includes(TOKEN)).map(([name]) => name);
  assert.deepEqual(carried, [], `${otherUrl} received the home origin's token in: ${carried.join(', ')}`);
});

void test('a token from an earlier response goes where a request of the file writes it, and only there', async () => {
  otherSaw.length = 0;
  const file = parseHttpFile([
    '# @name login',
    'POST {{base}}/login',
    'Content-Type: application/json',
    '',
    '{"user": "u"}',
    '',
    '###',
    `GET ${otherUrl}/search?ref={{login.response.body.$.access_token}}`,
    '',
    '###',
    '@ticket = {{login.response.body.$.access_token}}',
    `POST ${otherUrl}/audit`,
    'Content-Type: application/json',
    '',
    '{"note": "{{ticket}}"}',
    '',
    '###',
    'GET {{base}}/orders',
    'X-Ticket: {{login.response.body.$.access_token}}',
    '',
  ].join('\n'));
  const remember = new Map<string, NamedResponse>();
  const prepare = { ...devContext(homeUrl), responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard: new SecretBindings() };
  const results = [];
  for (const requestIndex of [0, 1, 2, 3]) results.push(await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports));
  assert.deepEqual(results.map((r) => r.ok), [true, true, true, true], results.map((r) => r.problem).join(' | '));
  // Written by the file to the other host: sent there (a sign-in server's token to its API) ...
  assert.deepEqual(otherSaw.map((saw) => saw.url), [`/search?ref=${TOKEN}`, '/audit', '/landing']);
  assert.deepEqual(ports.guard.originsOf(TOKEN), [homeUrl, otherUrl].sort());
  // ... and a redirect from home to there still takes nothing of it (the last request's hop).
  const landing = otherSaw.at(-1)!;
  assert.ok(!JSON.stringify(landing.headers).includes(TOKEN), 'the hop dropped it');
  // Shown anywhere, it is a secret of the run.
  const redactor = new Redactor(ports.guard.values());
  assert.ok(!redactor.text(`GET ${otherUrl}/search?ref=${TOKEN}`).includes(TOKEN));
});

void test('a token from a sign-in server goes on to the API host the environment names, and no further', async () => {
  otherSaw.length = 0;
  const file = parseHttpFile([
    '# @name login',
    'POST {{base}}/login',
    '',
    '###',
    'GET {{api}}/me',
    'Authorization: Bearer {{login.response.body.$.access_token}}',
    '',
  ].join('\n'));
  const environment = selectEnvironment(parseEnvFile(JSON.stringify({ dev: { base: homeUrl, api: otherUrl } }), 'http-client.env.json'), 'dev');
  const remember = new Map<string, NamedResponse>();
  const prepare = { ...devContext(homeUrl), environment, responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard: new SecretBindings() };
  for (const requestIndex of [0, 1]) {
    const result = await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports);
    assert.equal(result.ok, true, result.problem);
  }
  assert.equal(otherSaw.length, 1);
  assert.equal(otherSaw[0]!.headers.authorization, `Bearer ${TOKEN}`);
  assert.deepEqual(ports.guard.originsOf(TOKEN), [homeUrl, otherUrl].sort());
});
