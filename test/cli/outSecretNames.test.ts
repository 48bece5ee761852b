// `apiwb run --out` is a report: the value of every field whose name is a secret's (the vocabulary's
// isSecretName, the rule Redactor.row asks: the same as the panel's and every report's) is written as ***,
// whatever it holds (a string, an array, an object) and at whatever depth of a row, in NDJSON, CSV and a
// JSON array, for rows written as they arrive (a body past the 1 MiB batch) and for rows held (a small
// body), from a top-level array and from arrays one and two levels down, a single send and a walk.
// A server of the test's own on 127.0.0.1, port 0.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

/** Rows whose secret-named fields hold SECRET-n: a plain row mostly, and every few rows one of these. */
const SECRET_ROWS = [
  (i: number) => `{"id":${i},"token":"SECRET-1","client_secret":"SECRET-2"}`,
  (i: number) => `{"id":${i},"apiKeys":["SECRET-3",{"k":"SECRET-4"}]}`,
  (i: number) => `{"id":${i},"password":{"old":"SECRET-5","new":"SECRET-6"}}`,
  (i: number) => `{"id":${i},"meta":{"deep":{"more":[{"api_key":{"k":"SECRET-7"}}]}}}`,
  // A key spelt with an escape ("token"), which only a parse reads as the name it is.
  (i: number) => `{"id":${i},"to\\u006Ben":"SECRET-8"}`,
];
/** Row i: one of SECRET_ROWS every `every` rows (each kind in turn), else a plain one. */
const row = (i: number, every: number): string => (i % every === 7 ? SECRET_ROWS[Math.floor(i / every) % SECRET_ROWS.length]!(i) : `{"id":${i},"name":"row ${i} ${'x'.repeat(60)}"}`);
/** How a body holds its rows: at the top, one level down, two levels down. */
const SHAPES = { top: ['[', ']'], one: ['{"items":[', ']}'], two: ['{"data":{"list":[', ']}}'] } as const;
/** Rows of a small body (held whole) and of a large one (about 2 MB: its rows go out in batches as they arrive). */
const SIZES = { held: 60, streamed: 25_000 } as const;
const EVERY = { held: 10, streamed: 1000 } as const;

void describe('apiwb run --out and the fields named as secrets', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-outsecrets-', (req, res) => {
      const [, shape, size] = (req.url ?? '').split('/') as [string, keyof typeof SHAPES, keyof typeof SIZES];
      const [open, close] = SHAPES[shape];
      const count = SIZES[size];
      res.writeHead(200, { 'content-type': 'application/json' });
      let i = 0;
      // Written in pieces, as a server streams a large body.
      const more = (): void => {
        while (i < count) {
          const piece: string[] = [];
          for (const end = Math.min(count, i + 2000); i < end; i++) piece.push(row(i, EVERY[size]));
          if (!res.write(`${i - piece.length === 0 ? open : ','}${piece.join(',')}${i === count ? close : ''}`)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
  });
  after(() => server.close());

  for (const size of Object.keys(SIZES) as (keyof typeof SIZES)[]) {
    for (const shape of Object.keys(SHAPES) as (keyof typeof SHAPES)[]) {
      void it(`${size} rows ${shape === 'top' ? 'of a top-level array' : `${shape} level${shape === 'one' ? '' : 's'} down`}: masked in NDJSON, CSV and JSON`, async () => {
        const file = join(server.dir, `${size}-${shape}.http`);
        writeFileSync(file, `GET {{base}}/${shape}/${size}\n`);
        for (const format of ['ndjson', 'csv', 'json'] as const) {
          for (const walk of size === 'streamed' && format !== 'json' ? [false, true] : [false]) {
            const out = join(server.dir, `${size}-${shape}-${walk}.${format}`);
            const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out, '--format', format, ...(walk ? ['--all-pages'] : [])]);
            const what = `${format}${walk ? ' (a walk)' : ''}`;
            assert.equal(r.code, 0, `${what}: ${r.stdout}${r.stderr}`);
            const written = readFileSync(out, 'utf8');
            assert.deepEqual(written.match(/SECRET-\d/g) ?? [], [], `${what}: a secret-named field's value reached --out`);
            const expected = Array.from({ length: SIZES[size] }, (_, i) => i).filter((i) => i % EVERY[size] === 7).length;
            assert.ok(expected >= SECRET_ROWS.length);
            // Each secret row keeps its id and shows the mask where its value was.
            const masked = written.split(/\r?\n/).filter((line) => line.includes('***'));
            assert.equal(masked.length, expected, `${what}: ${masked.slice(0, 3).join(' / ')}`);
          }
        }
      });
    }
  }
});
