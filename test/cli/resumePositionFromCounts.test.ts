// Rule (src/core/paging/resumeCheck.ts, RequestPosition.counted): where a style's position follows from
// a resume record's counts (an offset is the request's offset plus the rows kept; a page number or an
// ordinal, the first plus the pages kept), the record must ask for that value and no other. An
// offset-remaining walk (body Offset += rows received; only an empty page ends it) cut at its third page
// keeps 6 rows and writes a record asking for Offset 6; edited to Offset 9, it once resumed past rows 7-9
// and ended "complete" (exit 0) with 9 of the 12 rows. It is refused. A small server on 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startLocalServer, type LocalServer } from './localServer';
import { cutWalk, idsOf, resumeEdited, type CutWalk } from './editedRecord';

const ROWS = Array.from({ length: 12 }, (_, i) => ({ id: i + 1 }));
let failThird = true;

void describe('a resume record that moves the offset past rows not kept', () => {
  let local: LocalServer;
  let cut: CutWalk;
  before(async () => {
    local = await startLocalServer('apiwb-cp-skip-', (req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => { text += c.toString('utf8'); });
      req.on('end', () => {
        const offset = Number((JSON.parse(text) as { Offset?: number }).Offset ?? 0);
        if (offset === 6 && failThird) {
          res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"Message":"busy"}');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ _Leads: ROWS.slice(offset, offset + 3), Remaining: Math.max(0, 12 - offset - 3) }));
      });
    });
    cut = await cutWalk(local, '# @name leads\n# @paging offset-remaining\nPOST {{base}}/leads\nContent-Type: application/json\n\n{"CtcID":5,"PageSize":3,"Offset":0}\n');
    failThird = false;
  });
  after(() => local.close());

  void it('Offset 9 for Offset 6: refused, or not complete with rows 7-9 missing', async () => {
    const result = await resumeEdited<{ checkpoint: { rows: number; next: { body: string } } }>(cut, (r) => {
      assert.equal(r.checkpoint.rows, 6);
      assert.match(r.checkpoint.next.body, /"Offset":6/);
      r.checkpoint.next.body = r.checkpoint.next.body.replace('"Offset":6', '"Offset":9');
    });
    const ids = idsOf(cut);
    assert.ok(result.code !== 0 || ids.length === 12, `exit 0, "${result.stdout.trim()}", rows ${JSON.stringify(ids)}`);
  });
});
