// `apiwb run` (with and without --out) of one big object: a map of records, no rows, past the skeleton's
// budget and past the names of fields not held it keeps (src/core/paging/notHeld.ts). The business verdict
// is JSON.parse's (its keys at the end, one given twice), an assertion reads a record past the skeleton from
// the kept body, no row is written; a body cut short fails in words, one broken past the skeleton is a body
// that is not JSON as a small one is. A server of the test's own on 127.0.0.1, port 0; the CLI in process.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { detectBusinessErrors } from '../../src/core/catalog/businessErrors';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const RECORDS = 110_000;

function bigObject(head: string, tail: string): string {
  const parts: string[] = [];
  for (let i = 0; i < RECORDS; i++) parts.push(`"r${String(i).padStart(8, '0')}":{"id":${i},"name":"Customer ${i} of the test","city":"Springfield","amount":${(i % 997) * 1.25}}`);
  return `{${head},${parts.join(',')},${tail}}`;
}

/** A failure given first, then none (the last, which JSON.parse keeps), and the reverse. */
const BODIES = {
  cleared: bigObject('"ResponseStatus":false,"Errors":[{"ErrorCode":3,"ErrorDescription":"Customer not found"}]', '"ResponseStatus":true,"Errors":[]'),
  failed: bigObject('"ResponseStatus":true,"Errors":[]', '"ResponseStatus":false,"Errors":[{"ErrorCode":3,"ErrorDescription":"Customer not found"}]'),
} as const;

void describe('apiwb run of one big object', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-bigobject-', (req, res) => {
      const name = (req.url ?? '').slice(1);
      if (name === 'cut') {
        // Headers promise the whole body; the connection ends after 90 % of it.
        const body = Buffer.from(BODIES.failed);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        res.write(body.subarray(0, Math.floor(body.length * 0.9)), () => res.destroy());
        return;
      }
      if (name === 'smallBroken') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1;"b":2}');
        return;
      }
      if (name === 'broken') {
        const text = BODIES.failed;
        const at = text.indexOf(',"r', Math.floor(text.length * 0.95));
        res.writeHead(200, { 'content-type': 'application/json' }).end(`${text.slice(0, at)};${text.slice(at + 1)}`);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODIES[name as keyof typeof BODIES]);
    });
  });
  after(() => server.close());

  for (const name of Object.keys(BODIES) as (keyof typeof BODIES)[]) {
    const failed = detectBusinessErrors(JSON.parse(BODIES[name])).failed;
    void it(`the business keys given twice (${name}): JSON.parse's verdict, no row, a record past the skeleton read from the body`, async () => {
      const file = join(server.dir, `${name}.http`);
      writeFileSync(file, `GET {{base}}/${name}\n\n?? body $.r00109999.id == 109999\n`);
      for (const withOut of [false, true]) {
        const out = join(server.dir, `${name}.ndjson`);
        const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, ...(withOut ? ['--out', out] : [])]);
        assert.equal(r.code, failed ? 1 : 0, r.stdout + r.stderr);
        if (failed) assert.match(r.stdout, /Customer not found/);
        else assert.doesNotMatch(r.stdout, /Customer not found/);
        assert.match(r.stdout, /\b0 rows\b/);
        if (withOut) assert.equal(existsSync(out) ? readFileSync(out, 'utf8') : '', '', 'no row written');
      }
    });
  }

  void it('a body cut short fails in words, keeping no row', async () => {
    const file = join(server.dir, 'cut.http');
    writeFileSync(file, 'GET {{base}}/cut\n');
    for (const withOut of [false, true]) {
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, ...(withOut ? ['--out', join(server.dir, 'cut.ndjson')] : [])]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /dropped in the middle of the response body/);
      assert.match(r.stdout, /\b0 row\(s\) written are kept/);
    }
  });

  void it('a body broken past the skeleton is answered as a small broken body is (a body that is not JSON)', async () => {
    const file = join(server.dir, 'broken.http');
    writeFileSync(file, 'GET {{base}}/broken\n\n?? status == 200\n');
    const small = join(server.dir, 'small.http');
    writeFileSync(small, 'GET {{base}}/smallBroken\n\n?? status == 200\n');
    const said = async (f: string): Promise<{ code: number; words: string }> => {
      const r = await runInProcess([f, '--env', 'local', '--env-file', server.envFile]);
      // A JSON body the grammar refuses fails the request: said alike but for its URL and the fault's byte.
      const words = r.stdout.replace(/\S*\.http:1\s+GET \S+\s+200\s+\d+ ms \(server \d+ ms\)/, '').replace(/\d+ ms/g, '');
      return { code: r.code, words: words.replace(/\(GET \S+\)/, '(GET)').replace(/at byte \d+/, 'at byte N') };
    };
    const big = await said(file);
    assert.deepEqual(big, await said(small));
    assert.equal(big.code, 1, big.words);
    assert.match(big.words, /the body is not valid JSON \(malformed JSON at byte N: unexpected ";"/);
  });
});
