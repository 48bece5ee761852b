// The real language server over stdio, driven by a real LSP client (vscode-languageserver-protocol).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fork, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  CompletionRequest, HoverRequest, CodeLensRequest, DocumentSymbolRequest, FoldingRangeRequest,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification,
  DidChangeConfigurationNotification, createProtocolConnection, IPCMessageReader, IPCMessageWriter, InitializeRequest, ShutdownRequest, ExitNotification,
  type CompletionList, type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { EnvironmentChangedNotification, CatalogOverlayNotification, SEND_COMMAND, SEND_AND_FOLLOW_PAGES_COMMAND } from '../../src/protocol/lsp';
import { openSettled, startLspSession, type LspSession } from './lspClient';

const uri = 'file:///work/scratch/survey.http';
const text = [
  '# @name score',
  'POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion',
  'Authorization: Bearer {{$auth.token("engagement")}}',
  'Content-Type: application/json',
  '',
  '{',
  '  "OpCode": 12,',
  '  "QuestionLable": "How was your stay?",',
  '  "ScoreRange": 1',
  '}',
  '',
  '###',
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=7&pageSize=900',
  '',
].join('\n');

let session: LspSession;

before(async () => {
  session = await startLspSession();
});

after(async () => {
  if (session.child.exitCode === null) await session.close();
});

void test('initialize announces completion (with its trigger characters), hover, codeLens, symbols, folding, incremental sync', () => {
  const capabilities = session.initializeResult.capabilities;
  assert.equal(capabilities.textDocumentSync, 2);
  for (const c of ['/', '"', '{', ':', ' ']) assert.ok(capabilities.completionProvider?.triggerCharacters?.includes(c), c);
  assert.equal(capabilities.hoverProvider, true);
  assert.ok(capabilities.codeLensProvider);
  assert.equal(capabilities.documentSymbolProvider, true);
  assert.equal(capabilities.foldingRangeProvider, true);
});

void test('didOpen publishes diagnostics: unknown field, paging range, missing mandatory fields', async () => {
  const diagnostics = await openSettled(session, uri, text);
  const codes = diagnostics.map((d) => d.code);
  assert.ok(codes.includes('unknown-field'), JSON.stringify(codes));
  assert.ok(codes.includes('out-of-range'));
  assert.ok(codes.includes('missing-mandatory'));
  const unknown = diagnostics.find((d) => d.code === 'unknown-field');
  assert.deepEqual(unknown?.range, { start: { line: 7, character: 2 }, end: { line: 7, character: 17 } });
  assert.match(unknown?.message ?? '', /Did you mean 'QuestionLabel'/);
});

void test('completion of body keys not yet present, with type; of enum values with meaning', async () => {
  const keys = await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 8, character: 2 } }) as CompletionList;
  const labels = keys.items.map((i) => i.label);
  assert.ok(labels.includes('UseEmoticons'));
  assert.ok(!labels.includes('OpCode'), 'present keys are not offered again');
  assert.equal(keys.items.find((i) => i.label === 'UseEmoticons')?.detail, 'boolean, nullable');
  const values = await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 8, character: 16 } }) as CompletionList;
  assert.deepEqual(values.items.map((i) => i.label), ['0 — OneToFive', '1 — ZeroToTen']);
});

void test('hover on a body key gives meaning, type, nullability and seed section', async () => {
  const hover = await session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 8, character: 5 } });
  const value = (hover?.contents as MarkupContent).value;
  assert.match(value, /ScoreRange/);
  assert.match(value, /integer int32/);
  assert.match(value, /not nullable/);
  assert.match(value, /1 — ZeroToTen/);
  assert.match(value, /customer-engagement contract §2\.2/);
});

void test('codeLens: Send and Send and follow pages on each request, with {uri, requestIndex}', async () => {
  const lenses = await session.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  assert.deepEqual(lenses?.map((l) => [l.command?.command, l.range.start.line, l.command?.arguments]), [
    [SEND_COMMAND, 1, [{ uri, requestIndex: 0 }]],
    [SEND_AND_FOLLOW_PAGES_COMMAND, 1, [{ uri, requestIndex: 0 }]],
    [SEND_COMMAND, 12, [{ uri, requestIndex: 1 }]],
    [SEND_AND_FOLLOW_PAGES_COMMAND, 12, [{ uri, requestIndex: 1 }]],
  ]);
  assert.equal(lenses?.[3]?.command?.title, 'Send and follow pages (page-number)');
});

void test('document symbols and folding ranges: one per request block', async () => {
  const symbols = await session.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
  assert.deepEqual(symbols?.map((s) => s.name), ['score', 'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=7&pageSize=900']);
  const folds = await session.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
  assert.ok(folds?.some((f) => f.startLine === 0 && f.endLine === 9));
});

void test('incremental change, environment names and a malformed payload: diagnostics follow, the server survives', async () => {
  await session.connection.sendNotification(EnvironmentChangedNotification, { variables: ['engagement_base_url'] });
  await session.connection.sendNotification(CatalogOverlayNotification, { operations: 'not a list' });
  const published = session.nextDiagnostics(uri, (p) => p.version === 2);
  await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: 7, character: 2 }, end: { line: 7, character: 17 } }, text: '"QuestionLabel"' }],
  });
  const codes = (await published).diagnostics.map((d) => d.code);
  assert.ok(!codes.includes('unknown-field'));
  assert.ok(!codes.includes('undefined-variable'), 'engagement_base_url is known now');
  const hover = await session.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 2 } });
  assert.match((hover?.contents as MarkupContent).value, /engagement\/SurveyApi\/AddFeedbackScoreQuestion/);
});

void test('an imported operation from the overlay is completed and hovered', async () => {
  const overlayUri = 'file:///work/scratch/overlay.http';
  await session.connection.sendNotification(CatalogOverlayNotification, {
    origin: 'http://127.0.0.1/openapi/v1.json',
    operations: [{ id: 'fundraising/Imported/CreateTag', service: 'fundraising', family: 'Imported', name: 'CreateTag', method: 'POST', path: '/v1/tags',
      requestBodySchema: { type: 'object', properties: { tagName: { type: 'string', description: 'the tag' } }, additionalProperties: false } }],
  });
  const published = session.nextDiagnostics(overlayUri);
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: overlayUri, languageId: 'http', version: 1, text: 'POST {{fundraising_base_url}}/v1/tags\n\n{ "tagNme": "x" }\n' } });
  assert.deepEqual((await published).diagnostics.map((d) => d.code), ['unknown-field', 'undefined-variable']);
  const completion = await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: overlayUri }, position: { line: 2, character: 2 } }) as CompletionList;
  assert.deepEqual(completion.items.map((i) => i.label), ['tagName']);
  const cleared = session.nextDiagnostics(overlayUri);
  await session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: overlayUri } });
  assert.deepEqual((await cleared).diagnostics, []);
});

void test('workspace/didChangeConfiguration can carry the environment names too', async () => {
  const published = session.nextDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'undefined-variable'));
  await session.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { apiWorkbench: { environmentVariables: ['tenant_code'] } } });
  const undefinedNames = (await published).diagnostics.filter((d) => d.code === 'undefined-variable').map((d) => d.message);
  assert.ok(undefinedNames.some((m) => m.includes("'engagement_base_url'")));
});

void test('shutdown and exit end the process with code 0, and nothing went to stderr', async () => {
  assert.equal(await session.close(), 0);
  assert.equal(session.stderr(), '');
});

void test('apiwb lsp --stdio serves the same server; without a transport it exits 2', async () => {
  const cli = await startLspSession(['src/cli/main.ts', 'lsp', '--stdio']);
  assert.ok(cli.initializeResult.capabilities.hoverProvider);
  assert.equal(await cli.close(), 0);
  const bare = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'lsp'], { cwd: join(import.meta.dirname, '../..'), encoding: 'utf8' });
  assert.equal(bare.status, 2);
  assert.match(bare.stderr, /choose a transport/);
});

void test('started with --node-ipc (as vscode-languageclient does) it speaks over the IPC channel', async () => {
  const child = fork(join(import.meta.dirname, '../../src/server/main.ts'), ['--node-ipc'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
  connection.listen();
  const result = await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
  assert.equal(result.capabilities.hoverProvider, true);
  await connection.sendRequest(ShutdownRequest.type);
  await connection.sendNotification(ExitNotification.type);
  assert.equal(await exited, 0);
  connection.dispose();
});

const bundle = join(import.meta.dirname, '../../dist/server.js');

void test('the bundled dist/server.js (what the VSIX ships) serves completion', async () => {
  assert.ok(existsSync(bundle), 'dist/server.js is not built: run npm run build (npm test builds before the node suites)');
  const built = await startLspSession([bundle, '--stdio']);
  const bundleUri = 'file:///work/scratch/bundle.http';
  await built.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: bundleUri, languageId: 'http', version: 1, text: 'POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion\n\n{ "ScoreRange":  }\n' } });
  const values = await built.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: bundleUri }, position: { line: 2, character: 16 } }) as CompletionList;
  assert.deepEqual(values.items.map((i) => i.label), ['0 — OneToFive', '1 — ZeroToTen']);
  assert.equal(await built.close(), 0);
});

void test('a server that cannot start fails the client at once', async () => {
  await assert.rejects(startLspSession(['-e', 'process.exit(3)']), /exited \(3\) before initialize/);
});

void test('contract citations: a client that says so gets command links in hovers and a code description on diagnostics', async () => {
  const reference = join(import.meta.dirname, '../../docs/contracts');
  const linked = await startLspSession(undefined, {
    capabilities: { textDocument: { hover: { contentFormat: ['markdown'] }, publishDiagnostics: { codeDescriptionSupport: true } } },
    initializationOptions: { contractReference: { command: 'apiWorkbench.openContractReference' } },
  });
  const plain = await startLspSession();
  try {
    const doc = 'file:///work/scratch/cite.http';
    const ordersText = 'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=7&pageSize=900\n';
    for (const s of [linked, plain]) {
      const published = s.nextDiagnostics(doc, (p) => p.diagnostics.some((d) => d.code === 'out-of-range'));
      await s.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: doc, languageId: 'http', version: 1, text: ordersText } });
      const range = (await published).diagnostics.find((d) => d.code === 'out-of-range');
      assert.match(range?.message ?? '', /customer-engagement contract §/);
      if (s === linked) assert.match(range?.codeDescription?.href ?? '', new RegExp(`^file://${reference.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/engagement\\.md#L\\d+$`));
      else assert.equal(range?.codeDescription, undefined, 'no code description for a client that does not support it');
      const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri: doc }, position: { line: 0, character: 1 } });
      const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
      assert.match(value, s === linked
        ? /\[customer-engagement contract §4\.2\]\(command:apiWorkbench\.openContractReference\?/
        : /\[customer-engagement contract §4\.2\]\(file:\/\/.*\/engagement\.md#L\d+\)/);
    }
  } finally {
    await linked.close();
    await plain.close();
  }
});
