// Issue 29, item 2 in the real editor: secrets are kept under the place they were entered (workspace folder,
// env file, environment). A second env file in the workspace (other-repo/http-client.env.json: a cloned
// repository's, as a single-folder harness allows) declares the same environment and auth names but points
// them at another host (a server of this test on 127.0.0.1): a Send from there asks first, naming both hosts,
// and on "no" its host receives nothing. A request of the first env file sent to that host is refused at
// the send boundary, and so is its re-run from History.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import type { AdoptQuestion } from '../../../src/extension/credentials/scopedSecretStore';
import type { SandboxDescriptor } from '../../../src/sandbox/descriptor';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { signInToEngagement, useSandboxEnvironment, writeWorkspaceFile } from './editorHelpers';

interface Seen { readonly url: string; readonly headers: IncomingHttpHeaders; readonly body: string }

describe('secrets kept where they were entered (issue 29)', () => {
  let api: ApiWorkbenchTestApi;
  let sandbox: SandboxDescriptor;
  let foreign: Server;
  let foreignBase = '';
  const seen: Seen[] = [];
  const asked: AdoptQuestion[] = [];
  let answer = false;
  let restoreConfirm: ApiWorkbenchTestApi['environments']['confirmAdopt'];
  let secondEnvFile: vscode.Uri | undefined;

  /** A file of the clone (editor-suite/other-repo/ in the test workspace). */
  async function writeCloneFile(name: string, text: string): Promise<vscode.Uri> {
    const folder = vscode.Uri.joinPath(vscode.Uri.joinPath(await writeWorkspaceFile('.keep', ''), '..'), 'other-repo');
    await vscode.workspace.fs.createDirectory(folder);
    const uri = vscode.Uri.joinPath(folder, name);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return uri;
  }

  /** Back to the workspace's own env file, the clone's folder gone (pinned first: a search could find the clone's). */
  async function leaveTheClone(): Promise<void> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) return;
    await api.environments.useEnvFile(vscode.Uri.joinPath(root, 'http-client.env.json'));
    if (secondEnvFile) await vscode.workspace.fs.delete(vscode.Uri.joinPath(secondEnvFile, '..'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    await api.environments.useEnvFile(undefined);
  }

  before(async () => {
    api = await activatedApi();
    sandbox = requireSandbox();
    await useSandboxEnvironment(api);
    foreign = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"value":[{"id":"from-the-other-host"}]}');
      });
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignBase = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
    restoreConfirm = api.environments.confirmAdopt;
    api.environments.confirmAdopt = (question) => {
      asked.push(question);
      return Promise.resolve(answer);
    };
    // The first env file's secrets: a service key stored, and a token signed in.
    await api.environments.secrets.set('fundraising.service_key', sandbox.credentials.fundraising.fullAccess.serviceKey);
    await signInToEngagement(api, sandbox);
  });

  after(async () => {
    api.environments.confirmAdopt = restoreConfirm;
    await leaveTheClone();
    await useSandboxEnvironment(api);
    await new Promise<void>((resolve) => foreign.close(() => resolve()));
  });

  it('a second env file with the same environment and auth names, pointing at another host: asked, naming both hosts; on no, that host receives nothing', async () => {
    const firstEnv = api.environments.envFile;
    assert.ok(firstEnv, 'the workspace has its env file');
    const sandboxEnv = api.environments.active;
    assert.ok(sandboxEnv);
    // The clone's env file: the same names, every base URL and the Token URL on the other host.
    const variables: Record<string, unknown> = { ...sandboxEnv.variables };
    for (const name of ['engagement_base_url', 'engagement_auth_url', 'fundraising_base_url', 'booking_base_url']) variables[name] = foreignBase;
    secondEnvFile = await writeCloneFile('http-client.env.json', JSON.stringify({
      sandbox: {
        ...variables,
        Security: { Auth: { engagement: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{engagement_auth_url}}/token', Username: '{{username}}' } } },
        ApiWorkbench: { Auth: { fundraising: { Type: 'Basic+X-API-Key', 'Permission Name': '{{permission_name}}', 'Tenant Code': '{{tenant_code}}' } } },
      },
    }, null, 2));
    await api.environments.useEnvFile(secondEnvFile);
    await api.environments.use('sandbox');
    assert.equal(api.environments.scope().place.envFile, 'editor-suite/other-repo/http-client.env.json');

    const state = await api.environments.credentials.state('engagement');
    assert.equal(state.state, 'signed-out', 'the clone is not signed in by the first workspace\'s token');
    assert.equal(asked.length, 0, 'showing the state asks nothing');

    const uri = await writeCloneFile('constituents.http', [
      '### constituents', 'GET {{fundraising_base_url}}/v1/constituents', 'Authorization: Basic {{$auth.token("fundraising")}}', 'X-API-Key: {{tenant_code}}', '',
      '### surveys', 'GET {{engagement_base_url}}/api/SurveyApi/GetSurveys', 'Authorization: Bearer {{$auth.token("engagement")}}', '',
    ].join('\n'));
    answer = false;
    seen.length = 0;
    assert.equal(await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false), undefined, 'not sent');
    assert.equal(await api.sender.send({ uri: uri.toString(), requestIndex: 1 }, false), undefined, 'not sent');
    assert.equal(seen.length, 0, `the other host received nothing: ${JSON.stringify(seen)}`);

    assert.equal(asked.length, 2, asked.map((q) => q.message).join('\n'));
    const [key, token] = asked;
    assert.equal(key?.key, 'fundraising.service_key');
    assert.ok(key?.was.includes(new URL(sandbox.fundraising.baseUrl).origin), key?.message);
    assert.deepEqual(key?.now, [foreignBase]);
    assert.match(key?.message ?? '', new RegExp(`The service key of auth 'fundraising' was entered in \\S*/workspace/http-client\\.env\\.json, environment 'sandbox', for .*${escape(new URL(sandbox.fundraising.baseUrl).origin)}.*; \\S*/editor-suite/other-repo/http-client\\.env\\.json, environment 'sandbox', points the same names at ${escape(foreignBase)}\\. Send it to ${escape(foreignBase)}\\?`));
    assert.equal(token?.key, 'engagement.access_token');
    assert.match(token?.message ?? '', new RegExp(`The token of auth 'engagement' was entered in .* for .*${escape(new URL(sandbox.engagement.baseUrl).origin)}.*points the same names at ${escape(foreignBase)}`));
    for (const question of asked) {
      assert.ok(!question.message.includes(sandbox.credentials.fundraising.fullAccess.serviceKey), 'the question never holds the value');
    }

    // Asked once a session: a second Send says "not signed in" without asking again, and sends nothing.
    await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false);
    assert.equal(asked.length, 2);
    assert.equal(seen.length, 0);
  });

  it('a request of the first env file that would carry its credential to the other host is refused at the send boundary, re-run from History too', async () => {
    await leaveTheClone();
    await useSandboxEnvironment(api);
    assert.equal(api.environments.scope().place.envFile, 'http-client.env.json');
    seen.length = 0;
    const uri = await writeWorkspaceFile('origins-refused.http', `### elsewhere\n# @name elsewhere\nGET ${foreignBase}/v1/constituents\nX-Tenant-Auth: Basic {{$auth.token("fundraising")}}\n`);
    assert.equal(await api.sender.send({ uri: uri.toString(), requestIndex: 0 }, false), undefined, 'no response');
    assert.equal(seen.length, 0, 'the other host received nothing');
    const entry = (await api.history.list()).find((e) => e.name === 'elsewhere');
    assert.ok(entry, 'the refusal is in History');
    assert.match(entry.fault ?? '', new RegExp(`not sent to ${escape(foreignBase)}: header X-Tenant-Auth carries the (service key|Basic credential) of auth 'fundraising' \\(.*environment 'sandbox'\\), which belongs to .*${escape(new URL(sandbox.fundraising.baseUrl).origin)}`));
    await api.history.rerun(entry);
    assert.equal(seen.length, 0, 're-run from History: still nothing');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
