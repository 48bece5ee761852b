// Issue 30 in the real editor's Send: a REST Client GraphQL request reaches a server of this suite's own
// (127.0.0.1, port 0) as {"query", "variables", "operationName"} JSON; a {{$processEnv X}} value goes to
// the active environment's origin (the sandbox, whose request log shows it), is masked in the results
// panel and the History entry, and a request carrying it to another origin is refused with nothing
// received there.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { HttpResponse } from '../../../src/core/http/types';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { clearRequestLog, requestLog, useSandboxEnvironment, writeWorkspaceFile } from './editorHelpers';

const send = (uri: vscode.Uri, requestIndex = 0): Thenable<HttpResponse | undefined> =>
  vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: uri.toString(), requestIndex });

const KEY_NAME = 'APIWB_EDITOR_GQLVARS_KEY';
const KEY_VALUE = 'editor-env-value-4d2e9b7a';

describe('GraphQL and process-environment values in Send (issue 30)', () => {
  let api: ApiWorkbenchTestApi;
  let server: Server;
  let own = '';
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];

  before(async () => {
    api = await activatedApi();
    await useSandboxEnvironment(api);
    process.env[KEY_NAME] = KEY_VALUE;
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: { echo: JSON.parse(body || 'null') as unknown } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    delete process.env[KEY_NAME];
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a REST Client GraphQL request goes as JSON with its variables and operation name', async () => {
    received.length = 0;
    const uri = await writeWorkspaceFile('graphql-send.http', `POST ${own}/graphql\nX-Request-Type: GraphQL\n\nquery Ping($n: Int) { ping(n: $n) }\n\n{"n": 3}\n`);
    const response = await send(uri);
    assert.equal(response?.status, 200);
    assert.equal(received.length, 1);
    assert.match(String(received[0]!.headers['content-type']), /^application\/json/);
    assert.equal(received[0]!.headers['x-request-type'], undefined);
    assert.deepEqual(JSON.parse(received[0]!.body), { query: 'query Ping($n: Int) { ping(n: $n) }', variables: { n: 3 }, operationName: 'Ping' });
  });

  it('a $processEnv value reaches the environment\'s origin and is masked in the panel and History', async () => {
    const sandbox = requireSandbox();
    await clearRequestLog(sandbox.booking.baseUrl);
    const uri = await writeWorkspaceFile('processenv-home.http', `GET {{booking_base_url}}/bookings?page=1\nX-Key: {{$processEnv ${KEY_NAME}}}\n`);
    const response = await send(uri);
    assert.equal(response?.status, 200);
    const logged = (await requestLog(sandbox.booking.baseUrl)).filter((r) => r.path === '/bookings');
    assert.equal(logged.at(-1)?.headers['x-key'], KEY_VALUE, 'the environment\'s server got the value');
    assert.ok(!JSON.stringify(api.results.viewModel).includes(KEY_VALUE), 'the panel shows the value');
    const [entry] = await api.history.store.list();
    assert.ok(entry && !JSON.stringify(entry).includes(KEY_VALUE), 'the History entry holds the value');
  });

  it('a $processEnv value to another origin is refused; that server receives nothing', async () => {
    received.length = 0;
    const uri = await writeWorkspaceFile('processenv-other.http', `GET ${own}/steal\nX-Key: {{$processEnv ${KEY_NAME}}}\n`);
    const response = await send(uri);
    assert.equal(response, undefined, 'nothing was answered');
    assert.equal(received.length, 0, 'the other origin received a request');
  });
});
