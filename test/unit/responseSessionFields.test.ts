// A sign-in response commonly carries a `session` object (a user, a status, a customer id) beside its token.
// Only the credential in it is a secret of the login's origin: the plain words of the session object
// ("active", a user name) are not, so a later request to another host that writes them (or reads them) is
// sent, and the rows of later responses are not masked where they hold such a word.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import type { NamedResponse } from '../../src/core/httpfile/resolve';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { Redactor } from '../../src/core/secrets/redact';
import { devContext } from './exchangeContext';
import { listenBase } from '../cli/localServer';

let home: Server;
let other: Server;
let homeUrl = '';
let otherUrl = '';
const otherSaw: string[] = [];

before(async () => {
  other = createServer((req, res) => { otherSaw.push(req.url ?? ''); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); });
  otherUrl = await listenBase(other);
  home = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: 'tok-3f9a1c7e5b2d4a60', token_type: 'bearer', session: { user: 'alice-smith', status: 'active' } }));
  });
  homeUrl = await listenBase(home);
});
after(async () => {
  await new Promise<void>((resolve) => home.close(() => resolve()));
  await new Promise<void>((resolve) => other.close(() => resolve()));
  await closeHttpAgents();
});

void test('the plain fields of a response\'s session object are no secret of its origin', async () => {
  const file = parseHttpFile([
    '# @name login',
    'POST {{base}}/login',
    '',
    '###',
    'GET {{base}}/me?user={{login.response.body.$.session.user}}',
    '',
    '###',
    `GET ${otherUrl}/search?status=active`,
    '',
  ].join('\n'));
  const remember = new Map<string, NamedResponse>();
  const prepare = { ...devContext(homeUrl), responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard: new SecretBindings() };
  for (const requestIndex of [0, 1, 2]) {
    const result = await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports);
    assert.equal(result.ok, true, `request ${requestIndex}: ${result.problem ?? ''}`);
  }
  assert.deepEqual(otherSaw, ['/search?status=active']);
  // What the run prints and writes to --out passes a Redactor that knows the run's secrets.
  const redactor = new Redactor(ports.guard.values());
  assert.equal(redactor.text('{"owner":"bob","status":"inactive"}'), '{"owner":"bob","status":"inactive"}');
});
