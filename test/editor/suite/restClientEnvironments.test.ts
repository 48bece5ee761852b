// Issue 30 in the real editor: "Import REST Client Environments" writes rest-client.environmentVariables
// (here from the workspace's settings) into the workspace's http-client.env.json; values that look secret
// go into SecretStorage at this workspace folder and env file, bound to the environment's hosts, and onto
// no disk; the report names and counts, never a value; an environment the file has is overwritten only
// when the answer says so. The env file and settings are put back afterwards.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { HttpResponse } from '../../../src/core/http/types';
import { placedKey, readBound } from '../../../src/core/secrets/secretPlace';
import type { RestClientEnvironmentsReport } from '../../../src/extension/environments/restClientImport';
import { scanForSecrets } from '../lib/secretScan.mjs';
import { activatedApi } from './extensionUnderTest';

const ENV = 'rest-client-import-test';

/** Writes .vscode/settings.json and waits (on configuration events, bounded) until the editor reads it. */
async function workspaceSettings(root: vscode.Uri, value: unknown): Promise<void> {
  const wanted = JSON.stringify(value);
  const current = (): string => JSON.stringify(vscode.workspace.getConfiguration('rest-client').inspect('environmentVariables')?.workspaceValue);
  const changed = new Promise<void>((resolve) => {
    const listener = vscode.workspace.onDidChangeConfiguration(() => {
      if (current() === wanted) {
        listener.dispose();
        resolve();
      }
    });
  });
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, '.vscode', 'settings.json'), new TextEncoder().encode(JSON.stringify({ 'rest-client.environmentVariables': value }, null, 2)));
  if (current() !== wanted) await changed;
}

/** A server of the test's own on 127.0.0.1, port 0, that records the headers it receives. */
async function recordingServer(seen: IncomingHttpHeaders[]): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('Import REST Client Environments (issue 30)', () => {
  it('writes the environments into the env file, secrets into SecretStorage only, and asks before overwriting', async function () {
    this.timeout(60_000);
    const api = await activatedApi();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'a workspace folder');
    const envPath = api.environments.envFilePath;
    assert.ok(envPath, 'the test workspace has an env file');
    const envUri = vscode.Uri.file(envPath);
    const original = await vscode.workspace.fs.readFile(envUri);
    const apiKey = `rc-api-key-${randomUUID()}`;
    const sharedToken = `rc-shared-token-${randomUUID()}`;
    const settingsUri = vscode.Uri.joinPath(root, '.vscode', 'settings.json');
    const homeSeen: IncomingHttpHeaders[] = [];
    const otherSeen: IncomingHttpHeaders[] = [];
    const home = await recordingServer(homeSeen);
    const other = await recordingServer(otherSeen);
    const requestFile = vscode.Uri.joinPath(root, 'rest-client-import.http');
    const previous = api.environments.active?.name;
    try {
      await workspaceSettings(root, {
        $shared: { api_version: 'v2', prodToken: sharedToken },
        [ENV]: { host: home.origin, token: '{{$shared prodToken}}', apiKey, retries: 3 },
      });
      const report = await vscode.commands.executeCommand<RestClientEnvironmentsReport | undefined>('apiWorkbench.importRestClientEnvironments', { overwrite: false });
      assert.ok(report, 'a report');
      assert.deepEqual(report.scopes, ['workspace settings']);
      assert.deepEqual(report.written.find((w) => w.environment === ENV), { environment: ENV, variables: 2 });
      assert.deepEqual([...report.secrets].sort(), ['$shared.prodToken', `${ENV}.apiKey`, `${ENV}.token`]);
      assert.ok(!JSON.stringify(report).includes(apiKey) && !JSON.stringify(report).includes(sharedToken), 'names, never values');

      const written = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(envUri))) as Record<string, Record<string, unknown>>;
      assert.deepEqual(written[ENV], { host: home.origin, retries: 3 });
      assert.equal(written['$shared']?.['api_version'], 'v2');
      assert.ok(api.environments.envFile?.names.includes(ENV), 'the env file was loaded again and has the environment');

      // Kept for this place, bound to the environment's hosts; the $shared one for every environment too.
      const stored = await api.environments.allSecrets.get(placedKey(api.environments.placeOf(ENV), 'apiKey.variable'));
      assert.ok(stored, 'the api key is in SecretStorage');
      assert.deepEqual(readBound(stored), { value: apiKey, origins: [home.origin] });
      const shared = await api.environments.allSecrets.get(placedKey(api.environments.placeOf(ENV), 'prodToken.variable'));
      assert.equal(shared && readBound(shared).value, sharedToken);

      // Sent: {{apiKey}} resolves from SecretStorage for its own host; towards another origin it is refused.
      await api.environments.use(ENV);
      assert.ok(api.environments.variableNames().includes('apiKey'), 'the language server is told the name (never the value)');
      await vscode.workspace.fs.writeFile(requestFile, new TextEncoder().encode(`GET {{host}}/echo\nX-Api-Key: {{apiKey}}\n\n###\nGET ${other.origin}/collect\nX-Api-Key: {{apiKey}}\n`));
      const sent = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: requestFile.toString(), requestIndex: 0 });
      assert.equal(sent?.status, 200);
      assert.equal(homeSeen[0]?.['x-api-key'], apiKey, 'the secret variable reached its own host');
      const refused = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: requestFile.toString(), requestIndex: 1 });
      assert.notEqual(refused?.status, 200);
      assert.equal(otherSeen.length, 0, 'the other origin received nothing');

      // Imported again with another host: the environment exists now, and "keep" keeps it as it was.
      await workspaceSettings(root, { [ENV]: { host: 'http://127.0.0.1:8' } });
      const again = await vscode.commands.executeCommand<RestClientEnvironmentsReport | undefined>('apiWorkbench.importRestClientEnvironments', { overwrite: false });
      assert.deepEqual(again?.kept, [ENV]);
      const after = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(envUri))) as Record<string, Record<string, unknown>>;
      assert.equal(after[ENV]?.['host'], home.origin, 'not overwritten without a yes');
      const overwritten = await vscode.commands.executeCommand<RestClientEnvironmentsReport | undefined>('apiWorkbench.importRestClientEnvironments', { overwrite: true });
      assert.deepEqual(overwritten?.kept, []);
      const last = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(envUri))) as Record<string, Record<string, unknown>>;
      assert.equal(last[ENV]?.['host'], 'http://127.0.0.1:8');
      assert.equal(last[ENV]?.['retries'], 3, 'its other variables stay');
    } finally {
      if (previous) await api.environments.use(previous).catch(() => undefined);
      await vscode.workspace.fs.delete(requestFile).then(undefined, () => undefined);
      for (const { server } of [home, other]) await new Promise<void>((resolve) => server.close(() => resolve()));
      await vscode.workspace.fs.delete(settingsUri).then(undefined, () => undefined);
      await vscode.workspace.fs.writeFile(envUri, original);
      await api.environments.load();
    }
    // The settings file (written by this test) is gone: no file the product wrote holds either value.
    const dirs = JSON.parse(process.env.APIWB_TEST_SCAN_DIRS ?? '[]') as string[];
    assert.ok(dirs.length > 0, 'the runner named the folders to scan');
    const installedFile = process.env.APIWB_TEST_INSTALLED_FILES;
    const installed = installedFile ? (JSON.parse(await readFile(installedFile, 'utf8')) as Record<string, string>) : {};
    const { findings } = await scanForSecrets({ dirs, needles: [{ label: 'imported api key', value: apiKey }, { label: 'imported shared token', value: sharedToken }], installed });
    assert.deepEqual(findings.map((f) => `${f.file}: ${f.label}`), []);
    for (const name of (api.environments.envFile?.names ?? [])) {
      for (const key of ['apiKey.variable', 'prodToken.variable']) await api.environments.allSecrets.delete(placedKey(api.environments.placeOf(name), key));
    }
    await api.environments.allSecrets.delete(placedKey(api.environments.placeOf(ENV), 'apiKey.variable'));
    await api.environments.allSecrets.delete(placedKey(api.environments.placeOf(ENV), 'prodToken.variable'));
  });
});
