// Issue 4, runs last: the secrets the extension holds after every other suite — the access token it obtained
// from the sandbox, the stored password, service key and pasted JWT — are read back from SecretStorage and
// searched for, in this process, in every file the product may have written (workspace, user data, extensions;
// the runner names them). The runner scans again after the UI suites for the sandbox's own secrets. Failures
// name the file and which secret, never its value.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { scanForSecrets } from '../lib/secretScan.mjs';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import * as vscode from 'vscode';
import { signInToEngagement, writeWorkspaceFile } from './editorHelpers';

function scanDirs(): string[] {
  const raw = process.env.APIWB_TEST_SCAN_DIRS;
  if (!raw) throw new Error('the runner did not name the folders to scan (APIWB_TEST_SCAN_DIRS)');
  return JSON.parse(raw) as string[];
}

/**
 * Files as the VSIX installed them (path → sha256, written by the runner): the package's own files, skipped
 * while unchanged. They are not written by the product, and dist/cli.js embeds the sandbox's demo passwords.
 */
async function installedFiles(): Promise<Record<string, string>> {
  const file = process.env.APIWB_TEST_INSTALLED_FILES;
  return file ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, string>) : {};
}

describe('secrets at rest (issue 4)', () => {
  it('no file the product wrote holds the access token, password, service key or JWT the extension keeps', async () => {
    const api = await activatedApi();
    const sandbox = requireSandbox();
    await signInToEngagement(api, sandbox);
    // Normally left by the sign-in suite; stored here too so the test also holds when run alone (--grep).
    const secrets = api.environments.secrets;
    if (!(await secrets.get('fundraising.service_key'))) await secrets.set('fundraising.service_key', sandbox.credentials.fundraising.fullAccess.serviceKey);
    if (!(await secrets.get('fundraising-user.token'))) await secrets.set('fundraising-user.token', sandbox.credentials.fundraising.jwt.token);
    const held: Array<[string, string | undefined]> = [
      ['engagement access token', await api.environments.secrets.get('engagement.access_token')],
      ['engagement password', await api.environments.secrets.get('engagement.password')],
      ['fundraising service key', await api.environments.secrets.get('fundraising.service_key')],
      ['fundraising-user JWT', await api.environments.secrets.get('fundraising-user.token')],
    ];
    // The history store (issue 13) holds an authenticated request for the scan below to search.
    const orders = await writeWorkspaceFile('secrets-history.http', '###\nGET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctc_id}}&pageSize=5\nAuthorization: Bearer {{$auth.token("engagement")}}\n');
    await vscode.commands.executeCommand('apiWorkbench.send', { uri: orders.toString(), requestIndex: 0 });
    const historyFolder = api.history.folder.fsPath;
    assert.ok((await api.history.store.list()).some((e) => e.request.headers['Authorization'] === 'Bearer ***'), 'the history holds an authenticated request');
    const missing = held.filter(([, value]) => !value).map(([label]) => label);
    assert.deepEqual(missing, [], 'every kind of secret is in SecretStorage');
    // The runner's scan (plain and UTF-16 forms; files unchanged since the VSIX install are skipped).
    const { files, searched, findings } = await scanForSecrets({
      dirs: scanDirs(),
      needles: held.map(([label, value]) => ({ label, value: value ?? '' })),
      installed: await installedFiles(),
    });
    const found = findings.map((f) => `${f.file}: ${f.label}`);
    console.log(`[editor-suite] secrets at rest: ${files} files searched for ${held.length} secrets`);
    // The product's own log (the "API Workbench" output channel, persisted under the user-data logs) was searched.
    assert.ok(searched.some((f) => f.endsWith('API Workbench.log')), 'the API Workbench output log is among the files searched');
    assert.ok(searched.some((f) => f.startsWith(historyFolder) && f.endsWith('index.json')), `the history store (${historyFolder}) is among the files searched`);
    assert.ok(searched.some((f) => f.startsWith(historyFolder) && f.endsWith('.body')), 'and its stored bodies');
    // The message names files and labels only; deepEqual against [] would print nothing secret either.
    assert.deepEqual(found, [], `secrets found in files:\n${found.join('\n')}`);
  });
});
