// A single large response streams its rows to the sink while it arrives (walk of one page with
// rowsAsTheyArrive): rows reach the sink before the server has sent the end of the body, every row
// arrives exactly once, and the count is the page's.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { RowSink } from '../../src/core/export';
import { walk } from '../../src/core/paging/walker';

const ROWS = 80_000; // about 4.5 MB: each half more than one batch
const row = (i: number): string => `{"CtcID":${i},"Email":"person${i}@example.test","City":"Lyon"}`;

void describe('rows as they arrive', () => {
  void it('hands whole rows to the sink before the body ends, each once', async () => {
    const half = ROWS / 2;
    let releaseSecondHalf: () => void = () => undefined;
    const secondHalf = new Promise<void>((resolve) => { releaseSecondHalf = resolve; });
    let secondHalfSent = false;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"TableName":"SEL_1","Result":[${Array.from({ length: half }, (_, i) => row(i)).join(',')},`);
      // The rest waits until the sink has taken rows: proof they are written while the body arrives.
      void secondHalf.then(() => {
        secondHalfSent = true;
        res.end(`${Array.from({ length: half }, (_, i) => row(half + i)).join(',')}]}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const lines: string[] = [];
      let writesBeforeEnd = 0;
      const sink: RowSink = {
        format: 'ndjson',
        writePage: () => Promise.reject(new Error('streamed rows never come as objects')),
        writeNdjsonPage(pieces, count) {
          const text = Buffer.concat(pieces).toString('utf8');
          const got = text.split('\n').filter(Boolean);
          assert.equal(got.length, count, 'the count handed over is the number of lines');
          lines.push(...got);
          if (!secondHalfSent) {
            writesBeforeEnd++;
            releaseSecondHalf();
          }
          return Promise.resolve();
        },
        checkpoint: () => undefined,
        close: () => Promise.resolve(),
      };
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/Selection/GetSelectionResult_Ext`;
      const result = await walk({ method: 'POST', url, headers: {}, body: '{"OFFSET":1,"TableName":""}' }, {
        plan: { style: 'export-ordinal', options: { pageRows: String(ROWS * 2) }, source: 'directive' }, sink, maxPages: 1, rowsAsTheyArrive: true,
      });
      assert.equal(result.rows, ROWS, result.message);
      assert.ok(writesBeforeEnd >= 1, 'rows reached the sink before the end of the body was sent');
      assert.equal(lines.length, ROWS);
      assert.deepEqual(lines.map((l) => (JSON.parse(l) as { CtcID: number }).CtcID), Array.from({ length: ROWS }, (_, i) => i));
    } finally {
      releaseSecondHalf();
      server.closeAllConnections();
      server.close();
    }
  });
});
