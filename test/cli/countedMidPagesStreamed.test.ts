// A response whose rows are only counted (`apiwb run` without --out) between 256 KiB and 4 MiB is read as
// any streamed body: malformed at a known byte, it fails in the product's words at that byte (not V8's
// message quoting the body); cut mid-body, its line counts the rows fully received. (A review found that
// parsing such a body whole, tried for speed, lost both; it was taken out.) Oracle: the invariant "a cut
// or malformed body keeps exactly the rows fully received and fails in words with the byte". Server of
// the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { padded, printedRows, wholeRowsIn } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

/** About 800 KB: mid-sized, within the held bound (heldBody.ts, 1 MiB): held, then replayed into the stream when malformed or cut. */
const WRAPPED = `{"Data":[${padded(0, 8_000)}]}`;
const VALUE = `{"value":[${padded(0, 8_000)}]}`;
/** A comma doubled between two rows past 500 000 bytes: malformed at that byte. */
function malformed(text: string): { text: string; at: number } {
  const at = text.indexOf(',{"id":', 500_000);
  return { text: `${text.slice(0, at)},${text.slice(at)}`, at: at + 1 };
}
const BAD_WRAPPED = malformed(WRAPPED);
const BAD_VALUE = malformed(VALUE);
const CUT_AT = 600_000;

void describe('a mid-sized response only counted (no --out), malformed or cut', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-rev-revm-counted-', (req, res) => {
      const name = decodeURIComponent((req.url ?? '').slice(1));
      const whole = name === 'bad-wrapped' ? BAD_WRAPPED.text : name === 'bad-value' ? BAD_VALUE.text : name === 'cut-value' ? VALUE : WRAPPED;
      const bytes = Buffer.from(whole);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
      if (name.startsWith('cut-')) return void res.write(bytes.subarray(0, CUT_AT), () => res.socket?.destroy());
      res.end(bytes);
    });
  });
  after(async () => {
    await server.close();
  });

  const run = async (name: string, lines = '', extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> => {
    const file = join(server.dir, `${name}.http`);
    writeFileSync(file, `${lines}GET {{base}}/${encodeURIComponent(name)}\n`);
    return runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--timeout', '5000', ...extra]);
  };

  void it('a walk (--all-pages, no --out) whose malformed 800 KB page has no directive: fails in the product\'s words, at its byte', async () => {
    const r = await run('bad-wrapped', '', ['--all-pages']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, new RegExp(`malformed JSON at byte ${BAD_WRAPPED.at}\\b`), r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /is not valid JSON\)|Unexpected token/, 'V8\'s words, quoting the body');
  });

  void it('a walk (--all-pages, no --out) whose malformed 800 KB page is read at items=value: fails at its byte', async () => {
    const r = await run('bad-value', '# @paging generic next=next_link items=value\n', ['--all-pages']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, new RegExp(`malformed JSON at byte ${BAD_VALUE.at}\\b`), r.stdout + r.stderr);
  });

  void it('a malformed 800 KB body, items=value: fails in the product\'s words, at its byte', async () => {
    const r = await run('bad-value', '# @paging generic next=next_link items=value\n');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, new RegExp(`malformed JSON at byte ${BAD_VALUE.at}\\b`), r.stdout + r.stderr);
  });

  void it('an 800 KB body cut at 600 KB, items=value: the line counts the rows fully received', async () => {
    const r = await run('cut-value', '# @paging generic next=next_link items=value\n');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(printedRows(r.stdout), wholeRowsIn(VALUE.slice(0, CUT_AT)), r.stdout + r.stderr);
  });

  void it('the whole 800 KB body: its rows counted (control)', async () => {
    const r = await run('whole');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(printedRows(r.stdout), 8_000, r.stdout);
  });
});
