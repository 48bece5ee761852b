// Opening a file parses each block once: validation keeps its block parses, and the outline, lenses and
// folding asked after it read them, moved to their blocks' places, instead of parsing the file again. A
// parse made on the spot carries its block's own document (OwnBlock.document); a kept one does not, so a
// block read without it was not parsed again. Oracle for the answers: a document validated by no one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildLargeHttpFile } from '../../bench/completion/workload';
import { createHttpLanguageService, HttpDocumentCache } from '../../src/server/service';

const TEXT = buildLargeHttpFile(2_000);

void describe('opening a file parses it once', () => {
  void it('the outline, lenses and folding after validation read its parses, and answer as over a fresh parse', () => {
    const service = createHttpLanguageService();
    const document = new HttpDocumentCache().get('file:///once.http', 1, () => TEXT);
    service.doValidate(document);
    const blocks = document.blockTexts.blocks.length;
    assert.ok(blocks > 100);
    for (let k = 0; k < blocks; k++) assert.equal(document.ownBlock(k).document, undefined, `block ${k} was parsed again`);
    const fresh = new HttpDocumentCache().get('file:///once.http', 1, () => TEXT);
    assert.equal(fresh.ownBlock(0).document?.uri, 'file:///once.http', 'a block nobody parsed yet is parsed on the spot');
    const unvalidated = new HttpDocumentCache().get('file:///once.http', 1, () => TEXT);
    assert.deepEqual(service.documentSymbols(document), service.documentSymbols(unvalidated));
    assert.deepEqual(service.codeLenses(document), service.codeLenses(unvalidated));
    assert.deepEqual(service.foldingRanges(document), service.foldingRanges(unvalidated));
  });
});
