// Issue 6 in the real editor: "Send and follow pages" (the CodeLens command with {uri, requestIndex}) on a
// page-number list fills the results panel with the first page and says more pages follow; a SurveyApi
// call that fails inside an HTTP 200 (missing mandatory fields, code 1) carries the business-error banner.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HttpResponse } from '../../../src/core/http/types';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import type { SandboxDescriptor } from '../../../src/sandbox/descriptor';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { exportShownResponse, replaceInDocument, signInToEngagement, writeWorkspaceFile } from './editorHelpers';

const PAGE_SIZE = 40;

/** A GetOrdersByCustomer scratch for the sandbox's customer with `pageSize`, saved. */
async function ordersScratch(pageSize: number): Promise<vscode.Uri> {
  const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('apiWorkbench.newScratch', 'engagement/Transaction/GetOrdersByCustomer');
  assert.ok(uri, 'New Request Scratch made the scratch');
  const document = await vscode.workspace.openTextDocument(uri);
  const query = /GetOrdersByCustomer\?[^\n]*/.exec(document.getText())?.[0];
  assert.ok(query, 'the scratch calls GetOrdersByCustomer with a query');
  await replaceInDocument(document, query, `GetOrdersByCustomer?ctcID={{ctc_id}}&pageNumber=1&pageSize=${pageSize}`);
  await document.save();
  return uri;
}

describe('send into the results panel (issue 6)', () => {
  let api: ApiWorkbenchTestApi;
  let sandbox: SandboxDescriptor;

  before(async () => {
    api = await activatedApi();
    sandbox = requireSandbox();
    await signInToEngagement(api, sandbox);
  });

  it('"Send and follow pages" on a GetOrdersByCustomer scratch shows a page of rows and offers the next one', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('apiWorkbench.newScratch', 'engagement/Transaction/GetOrdersByCustomer');
    assert.ok(uri, 'New Request Scratch made the scratch');
    const document = await vscode.workspace.openTextDocument(uri);
    // The customer, and a page size other than the default. (The template leaves ctcID out: the contract
    // says only "at least one customer identifier is required".)
    const query = /GetOrdersByCustomer\?[^\n]*/.exec(document.getText())?.[0];
    assert.ok(query, 'the scratch calls GetOrdersByCustomer with a query');
    await replaceInDocument(document, query, `GetOrdersByCustomer?ctcID={{ctc_id}}&pageNumber=1&pageSize=${PAGE_SIZE}`);
    await document.save();
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>(
      'apiWorkbench.sendAndFollowPages', { uri: uri.toString(), requestIndex: 0 });
    assert.equal(response?.status, 200);
    assert.ok(api.results.isOpen, 'the results panel is open');
    const vm = api.results.viewModel;
    assert.ok(vm, 'the panel has a view model');
    assert.equal(vm.status, 200);
    assert.equal(vm.table?.rows.length, PAGE_SIZE, 'one page of orders as table rows');
    assert.ok((vm.table?.columns.length ?? 0) > 1, 'the orders have columns');
    assert.ok(vm.paging, 'the view model carries the paging state');
    assert.equal(vm.paging.style, 'page-number');
    assert.equal(vm.paging.pages, 1);
    assert.equal(vm.paging.rows, PAGE_SIZE);
    assert.equal(vm.paging.canContinue, true, `${sandbox.samples.ordersOfCtcID} orders: more pages follow`);
    assert.equal(api.sender.current?.cursor.checkpoint.pages, 1, 'the paging session is kept for Next page');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a plain Send on a paged request shows the first page and offers Next page; Next page appends; one row count', async () => {
    const uri = await ordersScratch(PAGE_SIZE);
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: uri.toString(), requestIndex: 0 });
    assert.equal(response?.status, 200);
    const vm = api.results.viewModel;
    assert.ok(vm?.paging, 'a plain Send of a paged request carries the paging state');
    assert.equal(vm.paging.canContinue, true, 'more pages follow, and the bar says so');
    assert.equal(vm.paging.rows, vm.table?.rows.length, 'the bar and the table count the same rows');
    const session = api.sender.current;
    assert.ok(session);
    await api.sender.handlePanelRequest({ type: 'nextPage', responseId: session.responseId, requestKey: vm.requestKey });
    const after = api.results.viewModel;
    assert.equal(after?.paging?.pages, 2);
    assert.equal(after?.paging?.rows, 2 * PAGE_SIZE);
    assert.equal(after?.table?.rows.length, 2 * PAGE_SIZE, 'the next page is appended to the table');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a refused continuation ends in the panel: All pages on a request changed in the file does not leave the bar walking', async () => {
    const uri = await writeWorkspaceFile('refused-walk.http', '###\n# @name refusedWalk\nGET {{booking_base_url}}/bookings?page=1\n');
    assert.equal((await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: uri.toString(), requestIndex: 0 }))?.status, 200);
    const session = api.sender.current;
    const requestKey = api.results.viewModel?.requestKey ?? '';
    assert.ok(session && api.results.viewModel?.paging?.canContinue, 'the bookings opened a paging session with more pages');
    // Another server now: the walk must not send this response's next page there (core/run/pagedWalk).
    const document = await vscode.workspace.openTextDocument(uri);
    await replaceInDocument(document, '{{booking_base_url}}', 'http://127.0.0.1:9');
    await api.sender.handlePanelRequest({ type: 'allPages', format: 'ndjson', responseId: session.responseId, requestKey });
    const after = api.results.viewModel?.paging;
    assert.equal(after?.walking, false, 'the panel, told the walk was starting, is told it ended');
    assert.equal(after?.pages, 1, 'no page was added');
    assert.equal(session.abort, undefined, 'nothing runs: Next page and All pages may be pressed again');
    assert.equal(session.exportFile, undefined, 'the walk never started: the session is not a walk into a file');
    const folder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file('/'), 'apiwb-results');
    const left = (await vscode.workspace.fs.readDirectory(folder).then((entries) => entries, () => [])).filter(([name]) => name.startsWith('refusedWalk-'));
    assert.deepEqual(left, [], 'the file the press made is gone again');
    // Refused for the request's sake, not because the session became a walk into a file.
    await api.sender.handlePanelRequest({ type: 'nextPage', responseId: session.responseId, requestKey });
    assert.equal(api.results.viewModel?.paging?.pages, 1);
    await replaceInDocument(document, 'http://127.0.0.1:9', '{{booking_base_url}}');
    await document.save();
    // The request as it was: Next page goes on in the panel.
    await api.sender.handlePanelRequest({ type: 'nextPage', responseId: session.responseId, requestKey });
    assert.equal(api.results.viewModel?.paging?.pages, 2, 'Next page continues once the request is the one paged again');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('All pages after a mid-walk fault resumes into the same file: the exact total, no order twice', async () => {
    const size = 100;
    const uri = await ordersScratch(size);
    // Page 3 of this customer's orders answers 500 once (the sandbox's armed page fault).
    const armed = await fetch(`${sandbox.engagement.baseUrl}/__sandbox/faults`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ failPage: 'page-number:3:status=500' }),
    });
    assert.equal(armed.status < 300, true, `the fault is armed (${armed.status})`);
    try {
      await vscode.commands.executeCommand('apiWorkbench.send', { uri: uri.toString(), requestIndex: 0 });
      const session = api.sender.current;
      const requestKey = api.results.viewModel?.requestKey ?? '';
      assert.ok(session, 'the first page opened a paging session');
      await api.sender.handlePanelRequest({ type: 'allPages', format: 'ndjson', responseId: session.responseId, requestKey });
      assert.equal(session.cursor.checkpoint.pages, 2, 'the walk stopped at the fault on page 3, two pages kept');
      assert.equal(session.cursor.more, true, 'and can resume');
      const file = session.exportFile;
      assert.ok(file, 'the walk was writing a file');
      await api.sender.handlePanelRequest({ type: 'allPages', format: 'ndjson', responseId: session.responseId, requestKey });
      const total = sandbox.samples.ordersOfCtcID;
      const ids = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(file))).split('\n').filter(Boolean)
        .map((line) => (JSON.parse(line) as { OrderID?: unknown }).OrderID);
      assert.equal(ids.length, total, `every order once: ${ids.length} of ${total}`);
      assert.equal(new Set(ids).size, total, 'no order twice');
      assert.equal(session.cursor.more, false, 'the walk is complete');
      assert.equal(api.results.viewModel?.paging?.rows, total, 'the bar counts the whole walk');
    } finally {
      await fetch(`${sandbox.engagement.baseUrl}/__sandbox/faults`, { method: 'DELETE' });
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('Export after opening a History entry writes the rows on screen, not those of the paging session behind it', async () => {
    const bookings = await writeWorkspaceFile('export-bookings.http', '###\n# @name exportBookings\nGET {{booking_base_url}}/bookings?page=1\n');
    assert.equal((await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: bookings.toString(), requestIndex: 0 }))?.status, 200);
    const [entry] = await api.history.store.list();
    assert.equal(entry?.name, 'exportBookings');
    const orders = await ordersScratch(PAGE_SIZE);
    await vscode.commands.executeCommand('apiWorkbench.send', { uri: orders.toString(), requestIndex: 0 });
    assert.ok(api.sender.current, 'the orders opened a paging session');
    await vscode.commands.executeCommand('apiWorkbench.openHistoryEntry', entry.id);
    const vm = api.results.viewModel;
    assert.equal(vm?.requestKey, `history:${entry.id}`, 'the panel shows the History entry');
    const shown = vm.table?.rows ?? [];
    assert.ok(shown.length > 0, 'the entry\'s bookings are a table');
    const rows = (await exportShownResponse(api, 'ndjson')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(rows.length, shown.length, 'as many rows as the table on screen');
    assert.ok(rows.every((row) => !('OrderID' in row)), 'no order of the paging session');
    assert.deepEqual(rows, JSON.parse(JSON.stringify(shown)), 'the bookings on screen');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a SurveyApi call missing its mandatory fields (code 1 inside a 200) shows the business-error banner', async () => {
    // Which fields are required is not shown: the sandbox answers code 1 only under its required-fields choice.
    const uri = await writeWorkspaceFile('survey-code1.http', `### SurveyApi without its mandatory base fields
POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion
Authorization: Bearer {{$auth.token("engagement")}}
Content-Type: application/json
X-Sandbox-Choice: required-fields

{ "ScoreRange": 0 }
`);
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: uri.toString(), requestIndex: 0 });
    assert.equal(response?.status, 200);
    const banner = api.results.viewModel?.businessErrors;
    assert.ok(banner, 'the view model has the business-error banner');
    assert.equal(banner.httpStatus, 200);
    assert.match(banner.statusNote, /200/);
    assert.match(banner.catalogue ?? '', /SurveyApi/);
    const failure = banner.failures.find((f) => f.code === 1);
    assert.ok(failure, `code 1 among ${banner.failures.map((f) => f.code).join(', ')}`);
    assert.ok(failure.meanings.length > 0, 'code 1 comes with its catalogue meaning');
    assert.equal(api.results.viewModel?.paging, undefined, 'a plain Send has no paging state');
  });
});
