// Nothing a run reads back is obeyed beyond what produced it. A walk cut short leaves its checkpoint in
// F.apiwb-resume.json, naming the request it continues (requestIndex); `--resume` skips the requests
// before it as "written by the run being resumed". A record edited to name a LATER request of the same
// text (a list walked, an order created, the list walked again: a common file) made --resume skip the
// walk that was cut short, say it was written, continue the other one and exit 0 — "0 failed" for a
// walk that never finished, its pages 2 and 3 missing from F (revD, 3a66e2d).
// The rule (src/cli/runResume.ts: unprovedBy, src/cli/resumeFile.ts): the record names its walk's place
// and block as written and every request the run finished before it (place, block, rows left in F,
// passed or not); a --resume skips exactly those, each written as it was, their rows and the walk's held
// by F, else it is refused (exit 2) before anything is sent. One that failed there fails the resumed run.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockHash, ORDERS_FILE, startOrdersServer, type Completed, type OrdersServer } from './ordersWalks';
import { runInProcess } from './inProcess';
import { writeSignedRecord } from './signedRecord';

interface Record { requestIndex: number; where: string; fingerprint: string; completed: Completed[] }

void describe('an edited resume record does not make an unfinished walk count as done', () => {
  let orders: OrdersServer;
  before(async () => { orders = await startOrdersServer('apiwb-revD-resume-index-'); });
  after(async () => { await orders.server.close(); });

  const setUp = (name: string, text = ORDERS_FILE): { file: string; out: string; args: string[]; recordPath: string } => {
    const file = join(orders.server.dir, `${name}.http`);
    writeFileSync(file, text);
    const out = join(orders.server.dir, `${name}.ndjson`);
    return { file, out, args: [file, '--env', 'local', '--env-file', orders.server.envFile, '--all-pages', '--out', out], recordPath: `${out}.apiwb-resume.json` };
  };

  void it('--resume with a record moved to the second walk is refused or fails', async () => {
    const { out, args, recordPath } = setUp('orders');
    orders.failGet = 0;
    const first = await runInProcess([...args, '--max-pages', '1']);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as Record;
    assert.equal(record.requestIndex, 0, 'the first walk is the one cut short first');
    record.requestIndex = 2;
    record.where = record.where.replace(/:2$/, ':9');
    writeSignedRecord(recordPath, record);

    orders.seen.length = 0;
    const resumed = await runInProcess([...args, '--resume']);
    const rows = readFileSync(out, 'utf8');
    assert.notEqual(resumed.code, 0,
      `the resumed run reported success though the first walk (orders.http:2) stopped after page 1:\n${resumed.stdout}${resumed.stderr}\n--out holds:\n${rows}`);
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, /--resume: the checkpoint beside .* is not taken: .*orders\.http:9.*Nothing was sent/, resumed.stderr);
    assert.deepEqual(orders.seen, [], 'nothing is sent for a record refused');
  });

  void it('a record whose list of finished requests is forged too is refused: F does not hold their rows', async () => {
    const { args, recordPath } = setUp('forged');
    orders.failGet = 0;
    assert.equal((await runInProcess([...args, '--max-pages', '1'])).code, 1);
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as Record & { file: string };
    // Every field made as the run would have written it for a cut in the second walk, but the rows of the first walk and the POST.
    const at = (where: number, index: number, rows: number): Completed => ({ file: record.file, where: `${record.where.replace(/:\d+$/, '')}:${where}`, requestIndex: index, fingerprint: blockHash(index), rows, ok: true });
    record.completed = [at(2, 0, 3), at(5, 1, 1)];
    record.requestIndex = 2;
    record.where = record.where.replace(/:2$/, ':9');
    record.fingerprint = blockHash(2);
    writeSignedRecord(recordPath, record);
    orders.seen.length = 0;
    const resumed = await runInProcess([...args, '--resume']);
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, /1 rows kept by its walk and 4 by the requests finished before it, but the first \d+ bytes of .* hold 1/, resumed.stderr);
    assert.deepEqual(orders.seen, [], 'nothing is sent for a record refused');
  });

  void it('a walk cut short after the others finished resumes from its record, skipping exactly those', async () => {
    const { out, args, recordPath } = setUp('honest');
    orders.gets = 0;
    orders.failGet = 5; // the second walk's page 2
    const first = await runInProcess(args);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as Record;
    assert.equal(record.requestIndex, 2);
    assert.deepEqual(record.completed.map((c) => [c.requestIndex, c.rows, c.ok]), [[0, 3, true], [1, 1, true]]);
    orders.failGet = 0;
    const resumed = await runInProcess([...args, '--resume']);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id), ['p1', 'p2', 'p3', 'new', 'p1', 'p2', 'p3']);
  });

  void it('a resumed walk cut short again keeps the list of finished requests: a second --resume finishes it', async () => {
    const { out, args, recordPath } = setUp('twice');
    orders.gets = 0;
    orders.failGet = 5;
    assert.equal((await runInProcess(args)).code, 1);
    const firstRecord = JSON.parse(readFileSync(recordPath, 'utf8')) as Record;
    orders.failGet = orders.gets + 2; // the resumed walk's page 3
    const again = await runInProcess([...args, '--resume']);
    assert.equal(again.code, 1, again.stdout + again.stderr);
    const secondRecord = JSON.parse(readFileSync(recordPath, 'utf8')) as Record;
    assert.equal(secondRecord.requestIndex, 2);
    assert.deepEqual(secondRecord.completed, firstRecord.completed);
    orders.failGet = 0;
    const last = await runInProcess([...args, '--resume']);
    assert.equal(last.code, 0, last.stdout + last.stderr);
    assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id), ['p1', 'p2', 'p3', 'new', 'p1', 'p2', 'p3']);
  });

  void it('a request written into the file before the cut walk since is never skipped as finished: refused', async () => {
    const { file, args } = setUp('edited');
    orders.gets = 0;
    orders.failGet = 5;
    assert.equal((await runInProcess(args)).code, 1);
    writeFileSync(file, ORDERS_FILE.replace('###\n# @paging', '###\nDELETE {{base}}/orders/old\n\n###\n# @paging'));
    orders.failGet = 0;
    orders.seen.length = 0;
    const resumed = await runInProcess([...args, '--resume']);
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
    assert.match(resumed.stderr, /not taken: .*Nothing was sent/, resumed.stderr);
    assert.deepEqual(orders.seen, [], 'the DELETE written since is neither sent nor skipped as finished');
  });

  void it('a request that failed in the run being resumed fails the resumed run too (no success not orders.seen)', async () => {
    const { args } = setUp('failedBefore', ORDERS_FILE.replace('POST {{base}}/orders/new\n', 'POST {{base}}/orders/new\n?? status == 201\n'));
    orders.gets = 0;
    orders.failGet = 5;
    const first = await runInProcess(args);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    orders.failGet = 0;
    const resumed = await runInProcess([...args, '--resume']);
    assert.equal(resumed.code, 1, `the POST failed its assertion in the run resumed, yet:\n${resumed.stdout}${resumed.stderr}`);
    assert.match(resumed.stdout, /failed in the run being resumed/, resumed.stdout);
  });
});
