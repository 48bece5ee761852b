// A response field whose name merely holds a secret word is not a credential: the id of a key
// (`api_key_id`), a quota of tokens (`tokens_remaining`), a security question's words (`secretQuestion`).
// Read by a later request (to verify the key at another service, to log the quota) they are plain data:
// not refused at another host, and not masked in what the run prints ("5000 rows").
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
    res.end(JSON.stringify({ access_token: 'tok-3f9a1c7e5b2d4a60', api_key_id: 'kid-778899', tokens_remaining: 5000, secretQuestion: 'first pet' }));
  });
  homeUrl = await listenBase(home);
});
after(async () => {
  await new Promise<void>((resolve) => home.close(() => resolve()));
  await new Promise<void>((resolve) => other.close(() => resolve()));
  await closeHttpAgents();
});

void test('an id, a count or a question named with a secret word is no secret of the response', async () => {
  const file = parseHttpFile([
    '# @name login',
    'POST {{base}}/login',
    '',
    '###',
    `GET ${otherUrl}/verify?kid={{login.response.body.$.api_key_id}}&left={{login.response.body.$.tokens_remaining}}`,
    '',
    '###',
    `GET ${otherUrl}/question?q={{login.response.body.$.secretQuestion}}`,
    '',
  ].join('\n'));
  const remember = new Map<string, NamedResponse>();
  const prepare = { ...devContext(homeUrl), responses: remember };
  const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 10_000, guard: new SecretBindings() };
  const problems: string[] = [];
  for (const requestIndex of [0, 1, 2]) {
    const result = await runExchange({ file, requestIndex, prepare, remember, pages: 'first', steps: [] }, ports);
    if (!result.ok) problems.push(`request ${requestIndex}: ${result.problem ?? ''}`);
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(otherSaw, ['/verify?kid=kid-778899&left=5000', '/question?q=first%20pet']);
  const redactor = new Redactor(ports.guard.values());
  assert.equal(redactor.text('5000 rows'), '5000 rows');
});
