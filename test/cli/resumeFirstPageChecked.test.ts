// Rule (src/core/paging/resumeCheck.ts): a resume record of a style that numbers its pages must say the
// request's first page as its firstPage (the walk's totals are judged from it, walkRate.missingByTotals),
// and ask for that page plus the pages kept. A page-headers walk (10 rows, 3 a page, 4 pages announced)
// cut at page 3 keeps pages 1-2 and writes a record: next request page=3, firstPage 1. Edited to ask for
// page 4 and to say firstPage 2, or no firstPage, it once resumed past page 3 and ended "complete" (exit 0)
// with 7 of the 10 rows. It is refused. A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startLocalServer, type LocalServer } from './localServer';
import { cutWalk, idsOf, resumeEdited, type CutWalk } from './editedRecord';

const ROWS = Array.from({ length: 10 }, (_, i) => ({ id: i + 1 }));
let failPage3 = true;

function page(res: ServerResponse, n: number): void {
  if (n === 3 && failPage3) {
    res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"Message":"later"}');
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(n), 'X-Pagination-Per-Page': '3', 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '10' });
  res.end(JSON.stringify(ROWS.slice((n - 1) * 3, n * 3)));
}

interface Saved { checkpoint: { firstPage?: number; next: { url: string } } }

void describe('a resume record whose firstPage lets a skipped page pass the totals check', () => {
  let local: LocalServer;
  let cut: CutWalk;
  before(async () => {
    local = await startLocalServer('apiwb-cp-first-', (req, res) => page(res, Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1)));
    cut = await cutWalk(local, '# @name walk\n# @paging page-headers\nGET {{base}}/items\n');
    failPage3 = false;
  });
  after(() => local.close());

  const cases: [string, (r: Saved) => void][] = [
    ['firstPage 2', (r) => { r.checkpoint.firstPage = 2; }],
    ['no firstPage', (r) => { delete r.checkpoint.firstPage; }],
  ];
  for (const [what, edit] of cases) {
    void it(`page=4 for page=3 and ${what}: refused, or not complete with rows 7-9 missing`, async () => {
      const result = await resumeEdited<Saved>(cut, (r) => {
        assert.equal(r.checkpoint.firstPage, 1);
        assert.match(r.checkpoint.next.url, /page=3/);
        r.checkpoint.next.url = r.checkpoint.next.url.replace('page=3', 'page=4');
        edit(r);
      });
      const ids = idsOf(cut);
      assert.ok(result.code !== 0 || ids.length === 10, `exit 0, "${result.stdout.trim()}", rows ${JSON.stringify(ids)}`);
    });
  }
});
