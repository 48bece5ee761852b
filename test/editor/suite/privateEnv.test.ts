// Issue 13 in the real editor: "Import JetBrains Private Env File" moves the values of an
// http-client.private.env.json into SecretStorage, scoped to their environment and auth id, reports what
// moved (never a value), deletes the file when told to, and leaves the values nowhere on disk.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { placedKey, readBound } from '../../../src/core/secrets/secretPlace';
import { scanForSecrets } from '../lib/secretScan.mjs';
import type { PrivateEnvImportReport } from '../../../src/extension/credentials/privateEnvImport';
import { activatedApi } from './extensionUnderTest';

describe('JetBrains private env file (issue 13)', () => {
  it('its values end up in SecretStorage per environment and auth id, and nowhere on disk', async () => {
    const api = await activatedApi();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(root, 'a workspace folder');
    const password = `jb-password-${randomUUID()}`;
    const serviceKey = `jb-service-key-${randomUUID()}`;
    const env = 'jetbrains-import-test';
    const file = vscode.Uri.joinPath(root, 'http-client.private.env.json');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify({
      [env]: {
        Security: { Auth: { engagement: { Password: password } } },
        ApiWorkbench: { Auth: { fundraising: { 'Service Key': serviceKey } } },
        note: 'not a secret of any auth entry',
      },
    }, null, 2)));

    const report = await vscode.commands.executeCommand<PrivateEnvImportReport | undefined>('apiWorkbench.importPrivateEnvFile', file, { deleteFile: true });
    assert.ok(report);
    assert.deepEqual(report.moved.map((m) => m.secret), [`${env}/engagement.password`, `${env}/fundraising.service_key`]);
    assert.deepEqual(report.leftBehind.map((l) => l.from), [`${env}.note`]);
    assert.equal(report.deleted, true);
    assert.ok(!JSON.stringify(report).includes(password) && !JSON.stringify(report).includes(serviceKey), 'the report names secrets, never their values');

    // Kept for this workspace's env file and environment, bound to its hosts (never under the first versions' keys).
    const kept = async (key: string): Promise<string | undefined> => {
      const stored = await api.environments.allSecrets.get(placedKey(api.environments.placeOf(env), key));
      return stored === undefined ? undefined : readBound(stored).value;
    };
    assert.equal(await kept('engagement.password'), password);
    assert.equal(await kept('fundraising.service_key'), serviceKey);
    assert.equal(await api.environments.allSecrets.get(`${env}/engagement.password`), undefined, 'no key without its place');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(file)), 'the private file is deleted');

    const dirs = JSON.parse(process.env.APIWB_TEST_SCAN_DIRS ?? '[]') as string[];
    assert.ok(dirs.length > 0, 'the runner named the folders to scan');
    const installedFile = process.env.APIWB_TEST_INSTALLED_FILES;
    const installed = installedFile ? (JSON.parse(await readFile(installedFile, 'utf8')) as Record<string, string>) : {};
    const { findings } = await scanForSecrets({ dirs, needles: [{ label: 'imported password', value: password }, { label: 'imported service key', value: serviceKey }], installed });
    assert.deepEqual(findings.map((f) => `${f.file}: ${f.label}`), []);

    // Not left in SecretStorage for later suites.
    await api.environments.allSecrets.delete(placedKey(api.environments.placeOf(env), 'engagement.password'));
    await api.environments.allSecrets.delete(placedKey(api.environments.placeOf(env), 'fundraising.service_key'));
  });
});
