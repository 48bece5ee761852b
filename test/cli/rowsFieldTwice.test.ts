// A body that names an array twice (`{"value":[…],"value":[…]}`): JSON.parse keeps the last. Read without a
// style (rows anywhere), the streamed rows are the last array's too, whether the body is held or streamed
// to --out. With a style whose rows field it is, the rows of the first are already on their way when the
// second starts: the page takes neither and says so in its own words, never "not valid JSON" (it is JSON).
// A server of the test's own on 127.0.0.1, port 0.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const rows = (from: number, n: number): string => Array.from({ length: n }, (_, i) => `{"id":${from + i},"pad":"${'x'.repeat(80)}"}`).join(',');
/** A small body and one of about 1.4 MB (its first array's rows go out in batches before the second starts). */
const BODIES = { small: `{"value":[${rows(0, 3)}],"value":[${rows(100, 2)}]}`, large: `{"value":[${rows(0, 15_000)}],"value":[${rows(100_000, 5)}]}` } as const;

void describe('an array named twice in a body', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-twice-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODIES[(req.url ?? '').slice(1) as keyof typeof BODIES]);
    });
  });
  after(() => server.close());

  for (const size of Object.keys(BODIES) as (keyof typeof BODIES)[]) {
    const last = (JSON.parse(BODIES[size]) as { value: { id: number }[] }).value.map((r) => r.id);

    void it(`${size}, no style: the rows written are the last array's, as JSON.parse reads it`, async () => {
      const file = join(server.dir, `none-${size}.http`);
      writeFileSync(file, `GET {{base}}/${size}\n`);
      for (const walk of [false, true]) {
        const out = join(server.dir, `none-${size}-${walk}.ndjson`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, ...(walk ? ['--all-pages'] : [])]);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const written = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: number }).id);
        assert.deepEqual(written, last);
        assert.match(r.stdout, new RegExp(`${last.length} rows?\\b`));
      }
    });

    void it(`${size}, its style's rows field: refused in words that say why, and that it is JSON`, async () => {
      const file = join(server.dir, `generic-${size}.http`);
      writeFileSync(file, `# @paging generic next=next_link items=value\nGET {{base}}/${size}\n`);
      for (const args of [[], ['--all-pages']]) {
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, ...args]);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.match(r.stdout, /the rows field "value" appears twice in the body \(again at byte \d+\): JSON\.parse would keep the last, but the rows of the first were already read, so neither is taken/);
        assert.doesNotMatch(r.stdout, /not valid JSON|malformed/);
      }
    });
  }
});
