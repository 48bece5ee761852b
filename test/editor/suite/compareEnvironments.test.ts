// Compare Environments… in the real editor (issue 32): a booking walk in "sandbox" and in "sandbox-next"
// (the same sandbox, asked for its next release through the X-Sandbox-Choice header the environment
// sets) compares record by record: exactly the bookings the next release changes, by bookingId; the
// same from a History entry of that request; the same environment on both sides agrees.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CompareOutcome } from '../../../src/extension/compare/compareController';
import type { HttpResponse } from '../../../src/core/http/types';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { useSandboxEnvironment, whenTrue, writeWorkspaceFile } from './editorHelpers';

const compare = (target: unknown, choices: unknown): Thenable<CompareOutcome | undefined> =>
  vscode.commands.executeCommand<CompareOutcome | undefined>('apiWorkbench.compareEnvironments', target, choices);

describe('Compare Environments… (issue 32)', () => {
  let api: ApiWorkbenchTestApi;
  let envUri: vscode.Uri;
  let original: Uint8Array;
  let file: vscode.Uri;
  let planted: number;
  let total: number;

  before(async () => {
    const sandbox = requireSandbox();
    api = await activatedApi();
    await useSandboxEnvironment(api);
    const [found] = await vscode.workspace.findFiles('**/http-client.env.json', '**/node_modules/**', 1);
    if (!found) throw new Error('the test workspace has no http-client.env.json');
    envUri = found;
    original = await vscode.workspace.fs.readFile(envUri);
    const env = JSON.parse(new TextDecoder().decode(original)) as Record<string, Record<string, unknown>>;
    env['sandbox'] = { ...env['sandbox'], sandbox_release: 'release-next=off' };
    env['sandbox-next'] = { ...env['sandbox'], sandbox_release: 'release-next' };
    await vscode.workspace.fs.writeFile(envUri, new TextEncoder().encode(JSON.stringify(env, null, 2)));
    await api.environments.load();
    await whenTrue(api.environments.onDidChange, () => (api.environments.envFile?.names.includes('sandbox-next') ? true : undefined), 'the sandbox-next environment');
    file = await writeWorkspaceFile('compare-bookings.http', '# @name compareBookings\nGET {{booking_base_url}}/bookings\nX-Sandbox-Choice: {{sandbox_release}}\n');
    total = sandbox.samples.bookings;
    planted = Array.from({ length: total }, (_, i) => i).filter((i) => i % 40 === 5).length;
  });

  after(async () => {
    await vscode.workspace.fs.writeFile(envUri, original);
    await api.environments.load();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('finds exactly the bookings the next release changes, by bookingId, on every page', async () => {
    const outcome = await compare({ uri: file.toString(), requestIndex: 0 }, { environment: 'sandbox-next', allPages: true, key: 'bookingId' });
    assert.ok(outcome, 'the comparison ran');
    const r = outcome.comparison.records;
    assert.deepEqual([r?.added, r?.removed, r?.changed, r?.unchanged], [0, 0, planted, total - planted]);
    assert.equal(outcome.comparison.a.walk, 'complete');
    assert.equal(outcome.comparison.b.rows, total);
    assert.equal(outcome.comparison.differs, true);
  });

  it('from a History entry: the request it was sent from, compared the same way', async () => {
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: file.toString(), requestIndex: 0 });
    assert.equal(response?.status, 200);
    const [node] = await api.history.tree.getChildren();
    assert.ok(node);
    const outcome = await compare(node, { environment: 'sandbox-next', allPages: false, key: 'bookingId' });
    const r = outcome?.comparison.records;
    // The first page of 25: bookings 6 (index 5) is the only planted one on it.
    assert.deepEqual([r?.added, r?.removed, r?.changed, r?.unchanged], [0, 0, 1, sandbox().samples.bookingsPerPage - 1]);
  });

  it('the same release on both sides agrees: nothing but volatile values may differ', async () => {
    const outcome = await compare({ uri: file.toString(), requestIndex: 0 }, { environment: 'sandbox', allPages: true, key: '' });
    assert.equal(outcome?.comparison.differs, false);
    assert.equal(outcome?.comparison.records?.unchanged, total);
  });

  function sandbox() {
    return requireSandbox();
  }
});
