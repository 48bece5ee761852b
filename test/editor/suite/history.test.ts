// Issue 13 in the real editor: a sent request appears in the History view (newest first); its response
// reopens in the results panel from disk with its server stopped; two entries open side by side in the
// diff editor; an entry re-runs from its file; copy as curl, save to a collection and clear history work;
// an authenticated request's entry holds no credential. The server that gets stopped is a sandbox of
// this suite's own (port 0), so the runner's sandbox keeps serving the other suites.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HistoryEntry } from '../../../src/core/history';
import type { HttpResponse } from '../../../src/core/http/types';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { signInToEngagement, writeWorkspaceFile } from './editorHelpers';

const send = (uri: vscode.Uri, requestIndex = 0): Thenable<HttpResponse | undefined> =>
  vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: uri.toString(), requestIndex });

function diffTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.input).filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff);
}

describe('history, compare, re-run (issue 13)', () => {
  let api: ApiWorkbenchTestApi;
  let own: RunningSandbox | undefined;
  let bookingsFile: vscode.Uri;

  before(async () => {
    api = await activatedApi();
    own = await startSandbox({ bookings: 12, bookingsPerPage: 5 });
    bookingsFile = await writeWorkspaceFile('history-bookings.http', `### Bookings of a sandbox this suite stops
# @name historyBookings
GET ${own.descriptor.booking.baseUrl}/bookings?page=2
Accept: application/json
`);
  });

  after(async () => {
    await own?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  let first: HistoryEntry;

  it('a sent request is in the History view, newest first, with its status, environment and verdicts', async () => {
    const before = (await api.history.store.list()).length;
    const response = await send(bookingsFile);
    assert.equal(response?.status, 200);
    const entries = await api.history.store.list();
    assert.equal(entries.length, before + 1);
    const newest = entries[0];
    assert.ok(newest);
    assert.equal(newest.name, 'historyBookings');
    assert.equal(newest.request.method, 'GET');
    assert.match(newest.request.url, /\/bookings\?page=2$/);
    assert.equal(newest.response?.status, 200);
    assert.equal(newest.business.verdict, 'none');
    assert.equal(newest.operationId, 'booking/Bookings/ListBookings');
    assert.equal(newest.driftFindings, 0, 'the sandbox answers as the booking contract says');
    const nodes = await api.history.tree.getChildren();
    assert.equal(nodes[0]?.entry.id, newest.id, 'the view lists it first');
    const item = api.history.tree.getTreeItem(nodes[0]);
    assert.match(typeof item.label === 'string' ? item.label : item.label?.label ?? '', /historyBookings — GET \/bookings\?page=2/);
    assert.match(String(item.description), /^200 · /);
    first = newest;
  });

  it('its response reopens in the results panel from disk, with the server stopped', async () => {
    const shownBefore = api.results.viewModel?.body.text;
    await own?.close();
    own = undefined;
    // The server is gone: a network call now fails.
    await assert.rejects(fetch(first.request.url), 'the sandbox of this suite is stopped');
    const stored = await vscode.commands.executeCommand<{ entry: HistoryEntry } | undefined>('apiWorkbench.openHistoryEntry', first.id);
    assert.equal(stored?.entry.id, first.id);
    const vm = api.results.viewModel;
    assert.ok(vm, 'the panel shows a response');
    assert.equal(vm.status, 200);
    assert.equal(vm.requestKey, `history:${first.id}`);
    assert.match(vm.title, /from history/);
    assert.equal(vm.table?.rows.length, 5, 'the page of bookings, as a table, from the stored body');
    assert.ok(vm.headers.some((h) => h.name.toLowerCase() === 'x-pagination-page' && h.value === '2'));
    assert.equal(vm.body.text, shownBefore, 'the same body as when it was received');
  });

  it('a send that gets no response is in the history too, with the reason', async () => {
    assert.equal(await send(bookingsFile), undefined, 'the server is stopped');
    const [newest] = await api.history.store.list();
    assert.equal(newest?.name, 'historyBookings');
    assert.equal(newest?.response, undefined);
    assert.ok(newest?.fault, 'the reason is kept');
  });

  it('two entries open side by side in the diff editor, volatile lines marked', async () => {
    const sandbox = requireSandbox();
    const file = await writeWorkspaceFile('history-compare.http', `###\n# @name compareBookings\nGET {{booking_base_url}}/bookings?page=1\n`);
    await signInToEngagement(api, sandbox); // makes "sandbox" the active environment
    assert.equal((await send(file))?.status, 200);
    assert.equal((await send(file))?.status, 200);
    assert.equal(api.results.viewModel?.history[0]?.status, 200, 'the panel lists the earlier response to the same request');
    const [newer, older] = await api.history.store.list();
    assert.ok(newer && older);
    const pair = await vscode.commands.executeCommand<[HistoryEntry, HistoryEntry] | undefined>('apiWorkbench.compareHistoryEntries', newer.id, older.id);
    assert.deepEqual(pair?.map((e) => e.id), [older.id, newer.id], 'older on the left');
    const diff = diffTabs().find((d) => d.original.path === `/${older.id}.jsonc` && d.modified.path === `/${newer.id}.jsonc`);
    assert.ok(diff, `a diff editor with both entries; open diffs: ${diffTabs().map((d) => `${d.original.toString()} ↔ ${d.modified.toString()}`).join(', ')}`);
    const left = await vscode.workspace.openTextDocument(diff.original);
    const right = await vscode.workspace.openTextDocument(diff.modified);
    for (const doc of [left, right]) {
      assert.match(doc.getText(), /"status": "200 OK"/);
      assert.match(doc.getText(), /"x-pagination-page": "1"/);
      assert.match(doc.getText(), /"date": ".*",? \/\/ volatile/, 'the Date header is marked volatile');
    }
    // The same request twice: only volatile lines may differ.
    const a = left.getText().split('\n').slice(1);
    const b = right.getText().split('\n').slice(1);
    const differing = a.filter((line, i) => line !== b[i]);
    assert.ok(differing.every((line) => line.endsWith('// volatile')), `unmarked differences: ${differing.join('\n')}`);
  });

  it('an entry and the response on screen compare too', async () => {
    const [newest, , third] = await api.history.store.list();
    assert.ok(newest && third);
    await vscode.commands.executeCommand('apiWorkbench.openHistoryEntry', newest.id);
    const pair = await vscode.commands.executeCommand<[HistoryEntry, HistoryEntry] | undefined>('apiWorkbench.compareWithCurrentResponse', third.id);
    assert.deepEqual(pair?.map((e) => e.id).sort(), [newest.id, third.id].sort());
  });

  it('re-run sends the entry\'s request again from its file; copy as curl and save to a collection use the stored request', async () => {
    const [newest] = await api.history.store.list();
    assert.ok(newest);
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.rerunHistoryEntry', newest.id);
    assert.equal(response?.status, 200);
    const [rerun] = await api.history.store.list();
    assert.notEqual(rerun?.id, newest.id, 'a new entry');
    assert.equal(rerun?.request.url, newest.request.url);
    assert.equal(rerun?.origin?.file, newest.origin?.file);

    const curl = await vscode.commands.executeCommand<string | undefined>('apiWorkbench.copyHistoryAsCurl', newest.id);
    assert.match(curl ?? '', /^curl .*\/bookings\?page=1/);
    assert.equal(await vscode.env.clipboard.readText(), curl);

    const collection = await writeWorkspaceFile('history-saved.http', '');
    const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('apiWorkbench.saveHistoryToCollection', newest.id, collection);
    assert.equal(saved?.toString(), collection.toString());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(collection));
    assert.match(text, /# @name compareBookings\nGET \{\{booking_base_url\}\}\/bookings\?page=1/, 'the request as written, variables unexpanded');
  });

  it('re-run follows its request when the file changed since: moved, it is found; edited, nothing is sent', async () => {
    const file = await writeWorkspaceFile('history-moved.http', '###\nGET {{booking_base_url}}/bookings?page=2\n');
    assert.equal((await send(file))?.status, 200);
    const [sent] = await api.history.store.list();
    assert.ok(sent, 'the request was recorded');
    assert.ok(sent.request.url.endsWith('/bookings?page=2'));
    // The user writes another request above it: the recorded place (request 1) now holds that one.
    const document = await vscode.workspace.openTextDocument(file);
    const above = new vscode.WorkspaceEdit();
    above.insert(file, new vscode.Position(0, 0), '###\nGET {{booking_base_url}}/bookings?page=3\n\n');
    assert.ok(await vscode.workspace.applyEdit(above));
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.rerunHistoryEntry', sent.id);
    assert.equal(response?.status, 200);
    const [rerun] = await api.history.store.list();
    assert.ok(rerun, 'the re-run was recorded');
    assert.ok(rerun.request.url.endsWith('/bookings?page=2'), `the same request again, not the one in its old place: ${rerun.request.url}`);
    assert.equal(rerun.origin?.index, 1);
    // Edited, it is another request: Re-run says so and sends nothing.
    const edit = new vscode.WorkspaceEdit();
    const line = document.lineAt(document.lineCount - 2);
    assert.match(line.text, /page=2$/);
    edit.replace(file, line.range, 'GET {{booking_base_url}}/bookings?page=4');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const count = (await api.history.store.list()).length;
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.rerunHistoryEntry', sent.id), undefined);
    assert.equal((await api.history.store.list()).length, count, 'nothing was sent');
    assert.ok(await document.save());
  });

  it('the panel\'s earlier responses follow the request, not its place, once a request is inserted above', async () => {
    const file = await writeWorkspaceFile('history-earlier.http', '###\nGET {{booking_base_url}}/bookings?page=1\n\n###\nGET {{booking_base_url}}/bookings?page=2\n');
    assert.equal((await send(file, 1))?.status, 200);
    assert.equal((await send(file, 1))?.status, 200);
    const [entryOfB] = await api.history.store.list();
    assert.ok(entryOfB?.request.url.endsWith('page=2'));
    // Another request written above: page=1 now holds the place page=2 was sent from ("request 2").
    const above = new vscode.WorkspaceEdit();
    above.insert(file, new vscode.Position(0, 0), '###\nGET {{booking_base_url}}/bookings?page=3\n\n');
    assert.ok(await vscode.workspace.applyEdit(above));
    assert.equal((await send(file, 1))?.status, 200);
    assert.deepEqual(api.results.viewModel?.history.map((h) => h.url), [], 'page=1 was never sent before: none of page=2\'s responses');
    assert.equal((await send(file, 2))?.status, 200);
    const earlier = api.results.viewModel?.history.map((h) => h.url) ?? [];
    assert.equal(earlier.length, 2, 'page=2 keeps its own two earlier responses at its new place');
    for (const url of earlier) assert.ok(url.endsWith('page=2'), url);
    assert.ok(await (await vscode.workspace.openTextDocument(file)).save());
  });

  it('an authenticated request is recorded without its token; clear history empties the view', async () => {
    const sandbox = requireSandbox();
    await signInToEngagement(api, sandbox);
    const file = await writeWorkspaceFile('history-orders.http', `###\n# @name historyOrders\nGET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctc_id}}&pageNumber=1&pageSize=5\nAuthorization: Bearer {{$auth.token("engagement")}}\n`);
    assert.equal((await send(file))?.status, 200);
    const [entry] = await api.history.store.list();
    assert.equal(entry?.request.headers['Authorization'], 'Bearer ***');
    const token = await api.environments.secrets.get('engagement.access_token');
    assert.ok(token);
    assert.ok(!JSON.stringify(entry).includes(token), 'the token is not in the entry');
    assert.equal(entry?.business.verdict, 'ok');

    // Cleared at the end of this suite would leave nothing for the secret scan: clear, check, then send again.
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.clearHistory', true), true);
    assert.deepEqual(await api.history.store.list(), []);
    assert.deepEqual(await api.history.tree.getChildren(), []);
    assert.equal((await send(file))?.status, 200);
    assert.equal((await api.history.store.list()).length, 1);
  });
});
