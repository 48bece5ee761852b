// The language server's crash-free contract, as properties over hostile documents (see fuzzCorpus.ts):
// 1. every language-service call returns (never throws) on any document, at any cursor;
// 2. the real server over stdio, driven by a real LSP client, answers every request for such documents,
//    publishes diagnostics for each, and is still running at the end (zero crashes).
// `npm test` runs a fixed seed and a short count; `npm run fuzz` the same with APIWB_FUZZ_RUNS=3000.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  CompletionRequest, DidChangeTextDocumentNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, DocumentSymbolRequest,
  FoldingRangeRequest, HoverRequest, CodeLensRequest, LogMessageNotification,
} from 'vscode-languageserver-protocol/node';
import { createCatalog } from '../../src/core/catalog';
import { blockStartOffsets, parseHttpFile, splitLines } from '../../src/core/httpfile';
import { blockBounds } from '../../src/core/httpfile/parser';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';
import { OperationIndex } from '../../src/server/service/operations';
import { fromParser, requestDiagnostics } from '../../src/server/service/diagnostics';
import { validateDocument } from '../../src/server/service/validation';
import { FUZZ_RUNS, FUZZ_SEED, fuzzCase, positionsIn } from './fuzzCorpus';
import { startLspSession, type LspSession } from './lspClient';

const ENVIRONMENT = ['engagement_base_url', 'fundraising_base_url', 'booking_base_url', 'tenant_code', 'ctcID', 'a', 'b'];

/** fc.assert with the counterexample cut short: a 20 000-deep document would fill the log. */
function assertShort(property: fc.IPropertyWithHooks<[{ text: string; cursors: Array<[number, number]>; edit: string }]>): void {
  try {
    fc.assert(property, { seed: FUZZ_SEED, numRuns: FUZZ_RUNS, endOnFailure: true });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    throw new Error(text.length > 3_000 ? `${text.slice(0, 1_500)} … ${text.slice(-1_500)}` : text);
  }
}

void describe(`fuzz (seed ${FUZZ_SEED}, ${FUZZ_RUNS} runs)`, () => {
  void it('direct service calls never throw on mutated samples and random text', () => {
    const service = createHttpLanguageService();
    service.setEnvironmentVariables(ENVIRONMENT);
    let documents = 0;
    let calls = 0;
    assertShort(fc.property(fuzzCase, ({ text, cursors, edit }) => {
      for (const [version, content] of [[1, text], [2, edit]] as const) {
        const document = new HttpDocument('file:///fuzz.http', version, content);
        documents++;
        service.doValidate(document);
        service.codeLenses(document);
        service.documentSymbols(document);
        service.foldingRanges(document);
        calls += 4;
        for (const position of positionsIn(content, cursors)) {
          service.doComplete(document, position);
          service.doHover(document, position);
          calls += 2;
        }
      }
    }));
    console.log(`fuzz service: seed ${FUZZ_SEED}, ${FUZZ_RUNS} runs, ${documents} documents, ${calls} calls, 0 throws`);
  });

  void it('block by block (the server\'s incremental validation) reports exactly what the whole-file parse and checks report', () => {
    // The server cuts the text into blocks by offsets and validates each block's text as a document of
    // its own, then moves its findings to the block's lines; the reference is the parser's whole-file
    // cut and each request checked in place. Same cut, same findings, same lines, same order.
    const context = { operations: new OperationIndex(createCatalog()) };
    let blocks = 0;
    assertShort(fc.property(fuzzCase, ({ text, edit }) => {
      for (const content of [text, edit]) {
        const file = parseHttpFile(content);
        const lines = splitLines(content);
        assert.deepEqual(blockStartOffsets(content), blockBounds(lines).map(([first]) => lines[first]?.offset));
        const document = new HttpDocument('file:///fuzz.http', 1, content);
        const expected = [...file.diagnostics.map(fromParser), ...file.requests.flatMap((r) => requestDiagnostics(document, r, context))];
        assert.deepEqual(validateDocument(new HttpDocument('file:///fuzz.http', 1, content), context), expected);
        blocks += file.blocks.length;
      }
    }));
    console.log(`fuzz blocks: seed ${FUZZ_SEED}, ${FUZZ_RUNS} runs, ${blocks} blocks, block-wise = whole-file`);
  });

  void describe('the real server over stdio', () => {
    let session: LspSession;
    const logged: string[] = [];
    before(async () => {
      session = await startLspSession();
      session.connection.onNotification(LogMessageNotification.type, (p) => { logged.push(p.message); });
    });
    after(async () => {
      if (session.child.exitCode === null) await session.close();
    });

    void it('answers every request, publishes diagnostics for every version, and never exits', async () => {
      const cases = fc.sample(fuzzCase, { seed: FUZZ_SEED, numRuns: FUZZ_RUNS });
      const { connection } = session;
      let documents = 0;
      let calls = 0;
      const changed: Array<Promise<unknown>> = [];
      for (const [i, { text, cursors, edit }] of cases.entries()) {
        const uri = `file:///fuzz/${i}.http`;
        const opened = session.nextDiagnostics(uri, (p) => p.version === 1);
        await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version: 1, text } });
        documents++;
        const textDocument = { uri };
        const requests: Array<Promise<unknown>> = [
          connection.sendRequest(CodeLensRequest.type, { textDocument }),
          connection.sendRequest(DocumentSymbolRequest.type, { textDocument }),
          connection.sendRequest(FoldingRangeRequest.type, { textDocument }),
          ...positionsIn(text, cursors).flatMap((position) => [
            connection.sendRequest(CompletionRequest.type, { textDocument, position }),
            connection.sendRequest(HoverRequest.type, { textDocument, position }),
          ]),
        ];
        calls += requests.length;
        await Promise.all(requests);
        await opened;
        // The edit's diagnostics come after the validation pause; they are awaited together at the end
        // (the document stays open until then), so the pauses overlap instead of adding up.
        changed.push(session.nextDiagnostics(uri, (p) => p.version === 2));
        await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: edit }] });
        documents++;
        calls += 1;
        await connection.sendRequest(CompletionRequest.type, { textDocument, position: positionsIn(edit, cursors)[0]! });
      }
      await Promise.all(changed);
      for (const i of cases.keys()) await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: `file:///fuzz/${i}.http` } });
      const guarded = logged.filter((m) => / failed: /.test(m));
      console.log(`fuzz server: seed ${FUZZ_SEED}, ${cases.length} cases, ${documents} documents, ${calls} requests, ${guarded.length} guarded errors, process alive: ${session.child.exitCode === null}`);
      assert.equal(session.child.exitCode, null, `the server exited: ${session.stderr()}`);
      assert.deepEqual(guarded, [], 'no handler threw (the guard caught nothing)');
      assert.equal(await session.close(), 0, 'a clean shutdown');
    });
  });
});
