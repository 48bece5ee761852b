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
import { replaceInDocument, signInToEngagement, writeWorkspaceFile } from './editorHelpers';

const PAGE_SIZE = 40;

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

  it('a SurveyApi call missing its mandatory fields (code 1 inside a 200) shows the business-error banner', async () => {
    const uri = await writeWorkspaceFile('survey-code1.http', `### SurveyApi without its mandatory base fields
POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion
Authorization: Bearer {{$auth.token("engagement")}}
Content-Type: application/json

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
