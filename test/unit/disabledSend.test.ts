// A `# @disabled` request asked for by itself — the editor's Send and its CodeLens, through the one exchange
// (src/core/run/exchange.ts → prepareRequest → directives.ts directiveRefusal) — is decided by the rule
// `apiwb run` follows: no value or `true`, not sent (said, with how to send it); `false`, sent; another
// value, not sent (an error). Over real HTTP on 127.0.0.1: the server counts what reaches it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog/index';
import { closeHttpAgents, httpClient } from '../../src/core/http/client';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { directiveRefusal } from '../../src/core/httpfile/directives';
import { requestAt } from '../../src/core/httpfile/resolve';
import { runExchange, type ExchangePorts } from '../../src/core/run/exchange';
import { SecretBindings } from '../../src/core/secrets/bindings';
import { devContext } from './exchangeContext';

const FILE = parseHttpFile([
  '### bare', '# @disabled', 'GET {{base}}/bare', '',
  '### true', '# @disabled true', 'GET {{base}}/true', '',
  '### false', '# @disabled false', 'GET {{base}}/false', '',
  '### expression', '# @disabled {{skipIt}}', 'GET {{base}}/expression', '',
  '### plain', '# @name plain', 'GET {{base}}/plain', '',
].join('\n'));
const ports: ExchangePorts = { http: httpClient, catalog: createCatalog([]), timeoutMs: 5000, guard: new SecretBindings() };
const hits: string[] = [];
let server: Server;
let base = '';

/** What the editor's Send gets for the request at `index`: the words shown, or the status received. */
async function send(index: number): Promise<{ problem?: string; status?: number }> {
  const result = await runExchange({ file: FILE, requestIndex: index, prepare: devContext(base), pages: 'first' }, ports);
  if (!result.prepared.ok) return { problem: result.prepared.problem };
  return result.response ? { status: result.response.status } : { problem: result.problem ?? '' };
}

void describe('a # @disabled request sent by itself (the editor)', () => {
  before(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.setHeader('Content-Type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await closeHttpAgents();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  void it('a bare `# @disabled` and `# @disabled true` are not sent: the words say why, on which line, and how to send it', async () => {
    hits.length = 0;
    const bare = await send(0);
    assert.equal(bare.status, undefined);
    assert.equal(bare.problem, 'line 2: @disabled (httpYac): this request is disabled, so it is not sent; remove the line, or write # @disabled false, to send it');
    const yes = await send(1);
    assert.match(yes.problem ?? '', /^line 6: @disabled \(httpYac\): this request is disabled, so it is not sent/);
    assert.deepEqual(hits, [], 'nothing reached the server');
  });

  void it('`# @disabled false` is sent, as is a request without the directive', async () => {
    hits.length = 0;
    assert.deepEqual(await send(2), { status: 200 });
    assert.deepEqual(await send(4), { status: 200 });
    assert.deepEqual(hits, ['/false', '/plain']);
  });

  void it('`# @disabled` with an expression is not sent either: an error, never a guess', async () => {
    hits.length = 0;
    const expression = await send(3);
    assert.match(expression.problem ?? '', /^line 14: @disabled \(httpYac\): its value is a script expression .* this request is not run/);
    assert.deepEqual(hits, []);
  });

  void it('the decision is the one rule every sender asks (directiveRefusal): only the disabled ones are refused', () => {
    const refused = [0, 1, 2, 3, 4].map((i) => directiveRefusal(FILE, requestAt(FILE, i)!.block) !== undefined);
    assert.deepEqual(refused, [true, true, false, true, false]);
  });
});
