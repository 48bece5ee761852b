// Nothing a run reads back is obeyed beyond what produced it. A walk cut short leaves its checkpoint in
// F.apiwb-resume.json, naming the request it continues (requestIndex); `--resume` skips the requests
// before it as "written by the run being resumed". A record edited to name a LATER request of the same
// text (a list walked, an order created, the list walked again: a common file) makes --resume skip the
// walk that was cut short, say it was written, continue the other one and exit 0 — "0 failed" for a
// walk that never finished, its pages 2 and 3 missing from F. The record must be refused (it does not
// continue the request the run that wrote it stopped at), or the run must not report success.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const FILE = `# @paging generic next=next_link items=items
GET {{base}}/orders

###
POST {{base}}/orders/new

###
# @paging generic next=next_link items=items
GET {{base}}/orders
`;

void describe('an edited resume record does not make an unfinished walk count as done', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-revD-resume-index-', (req, res) => {
      const url = new URL(req.url ?? '/', server.origin);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'POST') return void res.end('{"items":[{"id":"new"}]}');
      const page = Number(url.searchParams.get('page') ?? '1');
      res.end(JSON.stringify({ items: [{ id: `p${page}` }], next_link: page < 3 ? `${server.origin}/orders?page=${page + 1}` : null }));
    });
  });
  after(async () => { await server.close(); });

  void it('--resume with a record moved to the second walk is refused or fails', async () => {
    const file = join(server.dir, 'orders.http');
    writeFileSync(file, FILE);
    const out = join(server.dir, 'orders.ndjson');
    const args = [file, '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out];
    const first = await runInProcess([...args, '--max-pages', '1']);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const recordPath = `${out}.apiwb-resume.json`;
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { requestIndex: number; where: string };
    assert.equal(record.requestIndex, 0, 'the first walk is the one cut short first');
    record.requestIndex = 2;
    record.where = record.where.replace(/:2$/, ':9');
    writeFileSync(recordPath, JSON.stringify(record));

    const resumed = await runInProcess([...args, '--resume']);
    const rows = readFileSync(out, 'utf8');
    assert.notEqual(resumed.code, 0,
      `the resumed run reported success though the first walk (orders.http:2) stopped after page 1:\n${resumed.stdout}${resumed.stderr}\n--out holds:\n${rows}`);
  });
});
