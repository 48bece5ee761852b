// Rule (src/core/paging/requestEdit.ts withBodyFields): a body walk's next request is the request with
// the style's place moved and nothing else changed, down to the text of every other number. The body
// styles (offset-remaining, batch-cursor, export-ordinal, whose OFFSET is added to page 1 the same way)
// once made the next body by JSON.parse and JSON.stringify, so CtcID 12345678901234567890 went out as
// 12345678901234567000 and asked for another customer. A small server on 127.0.0.1 records every body.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const ROWS = Array.from({ length: 5 }, (_, i) => ({ id: i + 1 }));
const bodies: Record<string, string[]> = { leads: [], assets: [], export: [] };

void describe('a body walk keeps every other field as the request writes it', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-rev-next-body-', (req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => { text += c.toString('utf8'); });
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
        bodies[path]?.push(text);
        const sent = JSON.parse(text) as Record<string, unknown>;
        const json = (body: unknown): void => { res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)); };
        if (path === 'leads') {
          const offset = Number(sent['Offset'] ?? 0);
          return json({ _Leads: ROWS.slice(offset, offset + 2), Remaining: Math.max(0, 3 - offset) });
        }
        if (path === 'assets') {
          const n = sent['BatchID'] === undefined ? 0 : Number((sent['BatchID'] as string).slice(1));
          return json({ BatchID: `B${n + 1}`, Remaining: Math.max(0, 3 - n * 2), Assets: ROWS.slice(n * 2, n * 2 + 2) });
        }
        const ordinal = Number(sent['OFFSET'] ?? 1);
        json({ TableName: 'T1', Result: ordinal === 1 ? ROWS : ROWS.slice(0, 2) });
      });
    });
    file = join(local.dir, 'bodies.http');
    writeFileSync(file, [
      '###\n# @name leads\n# @paging offset-remaining\nPOST {{base}}/leads\nContent-Type: application/json\n\n{"CtcID":12345678901234567890,"PageSize":2,"Offset":0}',
      '###\n# @name assets\n# @paging batch-cursor\nPOST {{base}}/assets\nContent-Type: application/json\n\n{"CtcID":12345678901234567890,"BatchSize":2}',
      '###\n# @name export\n# @paging export-ordinal pageRows=5\nPOST {{base}}/export\nContent-Type: application/json\n\n{"CtcID":12345678901234567890,"TableName":""}',
    ].join('\n\n'));
  });
  after(() => local.close());

  for (const name of ['leads', 'assets', 'export']) {
    void it(`${name}: every page's body carries CtcID 12345678901234567890`, async () => {
      const r = await runInProcess([file, '--env', 'local', '--env-file', local.envFile, '--name', name, '--all-pages']);
      assert.ok(bodies[name]!.length >= 2, `at least two pages were asked for: ${r.stdout}${r.stderr}`);
      for (const [i, body] of bodies[name]!.entries()) assert.match(body, /"CtcID":\s*12345678901234567890\b/, `page ${i + 1} sent ${body}`);
    });
  }
});
