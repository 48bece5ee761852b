// Rule (src/core/paging/resumeCheck.ts checkResume): a resume record decides the style's position and
// nothing else; the request sent is the one the file gives now with that position set, never the record's
// text. `apiwb run --resume` of an offset-remaining walk (body CtcID, PageSize, Offset) against a small
// server on 127.0.0.1, its record's next body edited so that it is equal to the request's only once parsed:
//   - CtcID 9007199254740993 where the request says 9007199254740992 (one double for JSON.parse);
//   - CtcID given twice, 999 first and the request's value last (JSON.parse keeps the last).
// Each is refused (exit 2, nothing sent), as any other body field the request does not have is.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startLocalServer, type LocalServer } from './localServer';
import { cutWalk, resumeEdited, type CutWalk } from './editedRecord';

const ROWS = Array.from({ length: 9 }, (_, i) => ({ id: i + 1 }));
const received: string[] = [];
let failThird = true;

void describe('a resume record whose body differs from the request only as text is refused', () => {
  let local: LocalServer;
  let cut: CutWalk;

  before(async () => {
    local = await startLocalServer('apiwb-cp-body-', (req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => { text += c.toString('utf8'); });
      req.on('end', () => {
        received.push(text);
        const offset = Number(/"Offset"\s*:\s*(\d+)/.exec(text)?.[1] ?? 0);
        if (offset === 6 && failThird) {
          res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"Message":"busy"}');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ _Leads: ROWS.slice(offset, offset + 3), Remaining: Math.max(0, 9 - offset - 3) }));
      });
    });
    cut = await cutWalk(local, '# @name leads\n# @paging offset-remaining\nPOST {{base}}/leads\nContent-Type: application/json\n\n{"CtcID":9007199254740992,"PageSize":3,"Offset":0}\n');
    failThird = false;
  });
  after(() => local.close());

  const cases: [string, (body: string) => string][] = [
    ['CtcID 9007199254740993 for 9007199254740992', (b) => b.replace('9007199254740992', '9007199254740993')],
    ['CtcID given twice, 999 first', (b) => b.replace('{', '{"CtcID":999,')],
  ];
  for (const [what, edit] of cases) {
    void it(`${what}: refused, exit 2, nothing sent`, async () => {
      const before = received.length;
      const result = await resumeEdited<{ checkpoint: { next: { body: string } } }>(cut, (r) => {
        const body = edit(r.checkpoint.next.body);
        assert.notEqual(body, r.checkpoint.next.body, 'the record was edited');
        r.checkpoint.next.body = body;
      });
      assert.deepEqual(received.slice(before), [], `sent as the record says: ${result.stdout}`);
      assert.equal(result.code, 2, result.stdout + result.stderr);
    });
  }
});
