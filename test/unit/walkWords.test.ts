// A walk's verdict in words (src/core/results/walkWords.ts): full sentences, plurals by count, one number
// format, and the bare reason without the walker's repeated counts — what the paging bar, the History list,
// its tooltip and a reopened entry all say.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCount } from '../../src/core/results/format';
import { pagesAndRows, walkFactsOf, walkReason, walkSentence, walkVerdictShort } from '../../src/core/results/walkWords';

const base = { message: 'x', checkpoint: {} };

void describe('walk words', () => {
  void it('a complete walk: counts with plurals, the end reason as a sentence', () => {
    const facts = walkFactsOf({ ...base, outcome: 'complete', verdict: 'complete', pages: 10, rows: 1234, checkpoint: { endReason: 'page 10 of 10 reached' } });
    assert.equal(walkSentence(facts), `All pages read: 10 pages and ${formatCount(1234)} rows. Page 10 of 10 reached.`);
    assert.equal(walkVerdictShort(facts), 'all pages, 10 pages');
  });

  void it('one page and one row are singular; zero is plural', () => {
    assert.equal(pagesAndRows(1, 1), '1 page and 1 row');
    assert.equal(pagesAndRows(0, 0), '0 pages and 0 rows');
  });

  void it('a failure names its page and reason, not the walker message with page(s)', () => {
    const walk = { ...base, outcome: 'failed', verdict: 'failed' as const, message: 'failed at page 3: timed out. 2 page(s), 40 row(s) written are kept.', pages: 2, rows: 40, failure: { page: 3, message: 'timed out' } };
    assert.equal(walkReason(walk), 'page 3: timed out');
    const sentence = walkSentence(walkFactsOf(walk));
    assert.equal(sentence, 'The walk failed; 2 pages and 40 rows are kept. Page 3: timed out.');
    assert.doesNotMatch(sentence, /\(s\)/);
    assert.equal(walkVerdictShort(walkFactsOf(walk)), 'failed, 2 pages kept');
  });

  void it('cut short by Stop or by a page limit says which', () => {
    assert.equal(walkReason({ ...base, outcome: 'stopped', verdict: 'cut-short', pages: 1, rows: 5 }), 'stopped by you');
    assert.match(walkSentence(walkFactsOf({ ...base, outcome: 'max-pages', verdict: 'cut-short', pages: 1, rows: 5 })), /^The walk was cut short after 1 page and 5 rows\. The page limit was reached/);
  });

  void it('inconsistent says the server contradicted itself', () => {
    assert.match(walkSentence({ verdict: 'inconsistent', pages: 2, rows: 50, reason: 'page 3: the total changed' }), /^The walk stopped: the server's paging contradicted itself\. 2 pages and 50 rows are kept\. Page 3: the total changed\.$/);
  });
});
