// Compare Environments… in the real editor (issue 32): a booking walk in "sandbox" and in "sandbox-next"
// (the same sandbox, asked for its next release through the X-Sandbox-Choice header the environment
// sets) compares record by record: exactly the bookings the next release changes, by bookingId; the
// same from a History entry of that request; the same environment on both sides agrees; every request
// of a collection file, summed up per request; a baseline directory `apiwb compare --baseline` wrote as
// the other side; a stored response from History as the other side (the request sent now against it),
// and two stored responses of one request against each other with nothing sent; every request of a
// folder of collection files on both releases, exactly the planted differences; Stop keeps what was
// compared; a pair opens in the diff editor.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimBaseline, writeBaseline } from '../../../src/core/compare/baseline';
import { RunFiles } from '../../../src/core/files/outputs';
import type { RequestComparison } from '../../../src/core/compare/requestComparison';
import { constituent, FIRST_TRANSACTION_ID } from '../../../src/sandbox/fundraising/data';
import { NEXT_ADDED_PAYMENTS, NEXT_FIRST_ADDED_ID, nextRelease } from '../../../src/sandbox/fundraising/nextRelease';
import type { CompareOutcome } from '../../../src/extension/compare/compareController';
import type { HttpResponse } from '../../../src/core/http/types';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { requestLog, useSandboxEnvironment, whenTrue, writeWorkspaceFile } from './editorHelpers';

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
    for (const name of ['sandbox-next', 'sandbox']) {
      await api.environments.use(name);
      await api.environments.secrets.delete('fundraising.service_key');
    }
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

  it('the same release on both sides agrees: every record unchanged', async () => {
    const outcome = await compare({ uri: file.toString(), requestIndex: 0 }, { environment: 'sandbox', allPages: true, key: '' });
    assert.equal(outcome?.comparison.differs, false);
    assert.equal(outcome?.comparison.records?.unchanged, total);
  });

  it('on a collection file: every request compared, a summary per request', async () => {
    const collection = await writeWorkspaceFile('compare-collection.http', '# @name firstPage\nGET {{booking_base_url}}/bookings\nX-Sandbox-Choice: {{sandbox_release}}\n\n###\n# @name secondPage\nGET {{booking_base_url}}/bookings?page=2\nX-Sandbox-Choice: {{sandbox_release}}\n');
    const outcome = await compare({ kind: 'file', uri: collection, scratch: false }, { environment: 'sandbox-next', allPages: false, key: 'bookingId' });
    assert.deepEqual(outcome?.comparisons.map((c) => c.label), ['firstPage', 'secondPage']);
    const perPage = sandbox().samples.bookingsPerPage;
    const changedOn = (page: number): number => Array.from({ length: perPage }, (_, i) => i + (page - 1) * perPage).filter((i) => i % 40 === 5).length;
    assert.deepEqual(outcome?.comparisons.map((c) => c.records?.changed), [changedOn(1), changedOn(2)]);
    const view = api.compare.panel.last;
    assert.equal(view?.state, 'done');
    assert.deepEqual(view?.summaries.map((s) => [s.request, s.differs]), [['firstPage', changedOn(1) > 0], ['secondPage', changedOn(2) > 0]]);
    assert.ok(view?.records.every((r) => r.request === 'firstPage' || r.request === 'secondPage'));
  });

  it('on a collection file: a # @disabled request is set aside on both sides, said as set aside, not as unanswered', async () => {
    const collection = await writeWorkspaceFile('compare-disabled.http', '# @name keptPage\nGET {{booking_base_url}}/bookings?page=2\nX-Sandbox-Choice: {{sandbox_release}}\n\n###\n# @name leftOut\n# @disabled\nGET {{booking_base_url}}/bookings?page=3\nX-Sandbox-Choice: {{sandbox_release}}\n');
    const before = (await requestLog(sandbox().booking.baseUrl)).length;
    const outcome = await compare({ kind: 'file', uri: collection, scratch: false }, { environment: 'sandbox-next', allPages: false, key: 'bookingId' });
    assert.deepEqual(outcome?.comparisons.map((c) => c.label), ['keptPage']);
    assert.deepEqual(outcome?.setAside.map((s) => s.label), ['leftOut']);
    assert.match(outcome?.setAside[0]?.reason ?? '', /^line 7: @disabled \(httpYac\): this request is not sent/);
    const sent = (await requestLog(sandbox().booking.baseUrl)).slice(before);
    const pages = sent.filter((r) => r.path.endsWith('/bookings')).map((r) => (r as { readonly query?: Record<string, unknown> }).query?.['page']);
    assert.deepEqual(pages, ['2', '2'], 'the kept request once a side, the disabled one on neither');
    const view = api.compare.panel.last;
    assert.equal(view?.state, 'done');
    assert.deepEqual(view?.summaries.map((s) => [s.request, s.setAside !== undefined]), [['keptPage', false], ['leftOut', true]]);
    assert.ok(!view?.summaries.some((s) => s.differences.some((d) => d.includes('neither side answered'))));
  });

  it('against a baseline directory: the recorded side A, the active environment as side B', async () => {
    // A baseline as `apiwb compare --baseline DIR` writes it, recorded from "sandbox-next" (the first page).
    const first = await compare({ uri: file.toString(), requestIndex: 0 }, { environment: 'sandbox-next', allPages: false, key: 'bookingId' });
    assert.ok(first);
    // The test's own folder (the product writes nothing there): removed whatever the outcome.
    const folder = mkdtempSync(join(tmpdir(), 'apiwb-baseline-'));
    const dir = join(folder, 'recorded');
    try {
      const rows = join(dir, '..', 'rows.ndjson');
      // The baseline's rows: the next release's first page (the sandbox's own, through its choice header).
      const nextPage = await fetch(`${sandbox().booking.baseUrl}/bookings`, { headers: { 'X-Sandbox-Choice': 'release-next' } }).then((r) => r.json() as Promise<unknown[]>);
      await vscode.workspace.fs.writeFile(vscode.Uri.file(rows), new TextEncoder().encode(nextPage.map((x) => `${JSON.stringify(x)}\n`).join('')));
      writeBaseline(claimBaseline(dir, 1, new RunFiles([])), 'sandbox-next', false, [{ where: 'compare-bookings.http:2', label: 'compareBookings', summary: first.comparison.b, rowsFile: rows }]);
      const outcome = await compare({ uri: file.toString(), requestIndex: 0 }, { baseline: dir, allPages: false, key: 'bookingId' });
      const r = outcome?.comparison.records;
      assert.deepEqual([r?.added, r?.removed, r?.changed, r?.unchanged], [0, 0, 1, sandbox().samples.bookingsPerPage - 1]);
      assert.match(api.compare.panel.last?.sideA ?? '', /^baseline recorded$/);
      // A baseline of other requests is said, not compared.
      const other = await writeWorkspaceFile('compare-other.http', '# @name notRecorded\nGET {{booking_base_url}}/bookings\n');
      assert.equal(await compare({ uri: other.toString(), requestIndex: 0 }, { baseline: dir, allPages: false, key: 'bookingId' }), undefined);
      assert.match(api.compare.panel.last?.progress ?? '', /holds no request named notRecorded/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('against a stored response from History: the request sent now (sandbox-next) against what sandbox answered before', async () => {
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: file.toString(), requestIndex: 0 });
    assert.equal(response?.status, 200);
    const [entry] = await api.history.store.list();
    assert.ok(entry);
    assert.equal(entry.environment, 'sandbox');
    await api.environments.use('sandbox-next');
    try {
      const outcome = await compare({ uri: file.toString(), requestIndex: 0 }, { history: entry.id, key: 'bookingId' });
      const r = outcome?.comparison.records;
      const perPage = sandbox().samples.bookingsPerPage;
      // One page a side (the stored response is one page): booking 6 (index 5) is the planted one on it.
      assert.deepEqual([r?.added, r?.removed, r?.changed, r?.unchanged], [0, 0, 1, perPage - 1]);
      assert.deepEqual([outcome?.comparison.a.status, outcome?.comparison.a.rows, outcome?.comparison.b.rows], [200, perPage, perPage]);
      assert.equal(outcome?.comparison.b.walk, undefined, 'side B sent one page, not a walk');
      const view = api.compare.panel.last;
      assert.match(view?.sideA ?? '', /^stored .+ \(sandbox\)$/);
      assert.equal(view?.sideB, 'sandbox-next, sent now');
      assert.deepEqual(view?.records.map((x) => [x.kind, x.key, x.fields.map((f) => f.path)]), [['changed', 'BK-000006', ['status']]]);
      assertNoSandboxSecret(JSON.stringify(view));
    } finally {
      await api.environments.use('sandbox');
    }
  });

  it('a History entry against another stored response of the same request: nothing is sent', async () => {
    await vscode.commands.executeCommand('apiWorkbench.send', { uri: file.toString(), requestIndex: 0 });
    await api.environments.use('sandbox-next');
    try {
      await vscode.commands.executeCommand('apiWorkbench.send', { uri: file.toString(), requestIndex: 0 });
    } finally {
      await api.environments.use('sandbox');
    }
    const [newer, older] = await api.history.tree.getChildren();
    assert.equal(newer?.entry.environment, 'sandbox-next');
    assert.equal(older?.entry.environment, 'sandbox');
    const sent = (await requestLog(sandbox().booking.baseUrl)).length;
    const outcome = await compare(newer, { history: older?.entry.id, key: 'bookingId' });
    assert.equal((await requestLog(sandbox().booking.baseUrl)).length, sent, 'no request reached the sandbox');
    const r = outcome?.comparison.records;
    assert.deepEqual([r?.added, r?.removed, r?.changed, r?.unchanged], [0, 0, 1, sandbox().samples.bookingsPerPage - 1]);
    // The older is side A, whichever entry the command was run on.
    const view = api.compare.panel.last;
    assert.match(view?.sideA ?? '', /\(sandbox\)$/);
    assert.match(view?.sideB ?? '', /\(sandbox-next\)$/);
    const pair = view?.records[0];
    assert.deepEqual(pair?.fields.map((f) => [f.path, [f.before, f.after].sort()]), [['status', ['Cancelled', 'Confirmed']]], 'the status flipped between Confirmed and Cancelled');
  });

  it('on a collection folder: every request of every file walked on both releases, exactly the planted differences', async () => {
    const d = sandbox().samples;
    const key = sandbox().credentials.fundraising.fullAccess.serviceKey;
    // The fundraising service asks for its Basic service key on each side, each in its own environment's scope.
    for (const name of ['sandbox-next', 'sandbox']) {
      await api.environments.use(name);
      await api.environments.secrets.set('fundraising.service_key', key);
    }
    const auth = 'Authorization: Basic {{$auth.token("fundraising")}}\nX-API-Key: {{tenant_code}}\nX-Sandbox-Choice: {{sandbox_release}}\n';
    await writeWorkspaceFile('compare-folder/constituents.http', `# @name constituents\nGET {{fundraising_base_url}}/v1/constituents?limit=200\n${auth}`);
    await writeWorkspaceFile('compare-folder/payments.http', `# @name payments\nGET {{fundraising_base_url}}/v1/transactions?limit=250\n${auth}\n###\n# @name lookupTypes\nGET {{fundraising_base_url}}/v1/lookup-types\n${auth}`);
    const [, collections] = await api.requestsTree.getChildren();
    const folder = (await api.requestsTree.getChildren(collections)).find((n) => n.kind === 'folder' && n.folder.endsWith('compare-folder'));
    assert.ok(folder?.kind === 'folder' && folder.files.length === 2, 'the Requests view lists the folder with its two files');
    const outcome = await compare(folder, { environment: 'sandbox-next', allPages: true, key: '' });
    assert.ok(outcome && !outcome.stopped);

    const organisations = Array.from({ length: d.constituents }, (_, i) => constituent({ seed: 3, constituents: d.constituents, transactions: d.transactions }, i))
      .filter((c) => nextRelease.addsCharityNumber(c)).map((c) => String(c['constituentNumber']));
    const indexes = Array.from({ length: d.transactions }, (_, i) => i);
    const removed = indexes.filter(nextRelease.removesPayment).map((i) => String(FIRST_TRANSACTION_ID + i));
    const changed = indexes.filter(nextRelease.changesPayment).map((i) => String(FIRST_TRANSACTION_ID + i));
    const added = Array.from({ length: NEXT_ADDED_PAYMENTS }, (_, k) => String(NEXT_FIRST_ADDED_ID + k));
    assert.ok(organisations.length > 10 && removed.length > 2 && changed.length > 2);
    const counts = (c: RequestComparison): number[] => [c.records?.added ?? -1, c.records?.removed ?? -1, c.records?.changed ?? -1, c.records?.unchanged ?? -1];
    assert.deepEqual(outcome.comparisons.map((c) => [c.label, c.a.walk, c.b.walk]), [['constituents', 'complete', 'complete'], ['payments', 'complete', 'complete'], ['lookupTypes', 'complete', 'complete']]);
    const [constituents, payments, lookupTypes] = outcome.comparisons as [RequestComparison, RequestComparison, RequestComparison];
    assert.deepEqual(counts(constituents), [0, 0, organisations.length, d.constituents - organisations.length]);
    // The field the next release adds is also contract drift on side B only (each page's rows are checked
    // as they stream); nothing else differs.
    const [shape, ...drift] = [...constituents.differences].sort((x, y) => (x.startsWith('fields') ? -1 : y.startsWith('fields') ? 1 : 0));
    assert.equal(shape, 'fields on side B only: charityNumber');
    assert.ok(drift.every((line) => /^contract drift on side B only: \$\.value\[\d+\]\.charityNumber: /.test(line)), drift.join('\n'));
    assert.deepEqual(counts(payments), [added.length, removed.length, changed.length, d.transactions - removed.length - changed.length]);
    assert.deepEqual(payments.differences, []);
    assert.equal(lookupTypes.differs, false);

    // The view lists exactly these records, each with its one field change, and nothing else.
    const view = api.compare.panel.last;
    assert.equal(view?.state, 'done');
    assert.deepEqual(view?.summaries.map((x) => [x.request, x.differs]), [['constituents', true], ['payments', true], ['lookupTypes', false]]);
    const listed = (request: string, kind: string): string[] => (view?.records ?? []).filter((r) => r.request === request && r.kind === kind).map((r) => r.key).sort();
    assert.equal(view?.differing, organisations.length + added.length + removed.length + changed.length);
    assert.deepEqual(listed('constituents', 'changed'), [...organisations].sort());
    assert.deepEqual(listed('payments', 'removed'), [...removed].sort());
    assert.deepEqual(listed('payments', 'changed'), [...changed].sort());
    assert.deepEqual(listed('payments', 'added'), [...added].sort());
    assert.ok(view?.records.filter((r) => r.request === 'constituents').every((r) => r.fields.length === 1 && r.fields[0]?.path === 'charityNumber' && r.fields[0].kind === 'added'));
    assert.ok(view?.records.filter((r) => r.kind === 'changed' && r.request === 'payments').every((r) => r.fields.length === 1 && r.fields[0]?.path === 'amount'));
    assertNoSandboxSecret(JSON.stringify(view));
  });

  it('Stop keeps what was compared: side B cut at its first page, the next request not sent', async () => {
    const collection = await writeWorkspaceFile('compare-stop.http', '# @name walkA\nGET {{booking_base_url}}/bookings\nX-Sandbox-Choice: {{sandbox_release}}\n\n###\n# @name walkB\nGET {{booking_base_url}}/bookings\n');
    const stopAtSideB = api.compare.panel.onDidShow((view) => { if (/side B \(sandbox-next\): page 1 /.test(view.progress ?? '')) api.compare.stop(); });
    try {
      const outcome = await compare({ kind: 'file', uri: collection, scratch: false }, { environment: 'sandbox-next', allPages: true, key: 'bookingId' });
      assert.equal(outcome?.stopped, true);
      assert.deepEqual(outcome?.comparisons.map((c) => c.label), ['walkA']);
      assert.equal(outcome?.comparison.a.rows, total);
      assert.ok((outcome?.comparison.b.rows ?? total) < total, 'side B was cut short');
      assert.equal(api.compare.panel.last?.state, 'stopped');
      assert.match(api.compare.panel.last?.progress ?? '', /1 of 2 requests compared/);
    } finally {
      stopAtSideB.dispose();
    }
  });

  it('a listed pair opens in the diff editor, side A against side B', async () => {
    await compare({ uri: file.toString(), requestIndex: 0 }, { environment: 'sandbox-next', allPages: false, key: 'bookingId' });
    const listed = api.compare.panel.last?.records[0];
    assert.equal(listed?.kind, 'changed');
    await vscode.commands.executeCommand('apiWorkbench.compareOpenPair', listed.index);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.match(tab.label, /BK-000006: side A ↔ side B/);
    const [left, right] = [tab.input.original, tab.input.modified].map((uri) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText() ?? '');
    assert.match(left ?? '', /"bookingId": "BK-000006"/);
    assert.notEqual(left, right);
  });

  function sandbox() {
    return requireSandbox();
  }

  /** No password, service key or JWT of the sandbox, plain or as a Basic credential, in `text`. */
  function assertNoSandboxSecret(text: string): void {
    const s = sandbox();
    const f = s.credentials.fundraising;
    const values = [s.credentials.engagement.password, f.fullAccess.serviceKey, f.readOnly.serviceKey, f.jwt.token];
    for (const value of values) assert.ok(!text.includes(value) && !text.includes(Buffer.from(value).toString('base64')), 'a sandbox secret is in the comparison view');
  }
});
