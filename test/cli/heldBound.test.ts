// A body within the held bound is read whole and parsed (JSON.parse), one past it streams
// (src/core/paging/heldBody.ts): `apiwb run` says the same of either. Each body is sent twice by a server of
// the test's own on 127.0.0.1 (its length declared, chunked in small writes, or gzip-coded), the bound set to its
// length (held) and to one byte less (streamed, the held chunks replayed once the bound is passed):
// - the same exit code, printed lines and --out file, whose rows are the oracle's (JSON.parse of the
//   whole body and the rows rule), the same business verdict;
// - a body cut mid-stream, within or past the bound, keeps exactly the rows fully received;
// - a malformed body is refused in the same words at the same byte;
// - a number JSON.parse would change (1E400) keeps its text in --out.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { HELD } from '../../src/core/paging/heldBody';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';
import { oracle, padded, printedRows, wholeRowsIn } from './outFileRows';

/** Bodies by name: the shapes a response takes (about 300 KB each: several chunks, past the 256 KiB a refused page's text is kept within). */
const BODIES: Record<string, string> = {
  array: `[${padded(0, 3000)}]`,
  wrapped: `{"Data":[${padded(0, 3000)}]}`,
  numbers: `[${Array.from({ length: 60_000 }, (_, i) => i * 7).join(',')}]`,
  object: `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":"v${i}"`).join(',')}}`,
  string: `"${'x'.repeat(300_000)}"`,
  business: `{"Success":false,"Error":"the quota is used up","Data":[${padded(0, 3000)}]}`,
  value: `{"value":[${padded(0, 3000)}]}`,
  lossy: `[${Array.from({ length: 3000 }, (_, i) => `{"id":${i},"n":1E400,"pad":"${'x'.repeat(60)}"}`).join(',')}]`,
  escaped: `{"value":[${padded(0, 1500)},{"id":"a\\"b"},${padded(1500, 1500)}]}`,
};
/** A comma doubled between two rows past 150 000 bytes: malformed at that byte. */
const BAD_AT = BODIES['wrapped']!.indexOf(',{"id":', 150_000) + 1;
BODIES['bad'] = `${BODIES['wrapped']!.slice(0, BAD_AT)},${BODIES['wrapped']!.slice(BAD_AT)}`;
const CUT_AT = 200_000;
/** The directive a body is read with (items=value: the rows field's path, counted by JSON.parse without --out). */
const DIRECTIVE: Record<string, string> = { value: '# @paging generic next=next_link items=value\n', escaped: '# @paging generic next=next_link items=value\n' };

interface Said { readonly code: number; readonly out: string; readonly file: string }

void describe('a body held within the bound and streamed past it: the same run', () => {
  let server: LocalServer;
  const bound = HELD.bytes;
  before(async () => {
    server = await startLocalServer('apiwb-held-', (req, res) => {
      const [name = '', how = '', cut = ''] = decodeURIComponent((req.url ?? '').slice(1)).split('.');
      const text = Buffer.from(BODIES[name] ?? '{}');
      // gzip: the bound counts the decoded bytes.
      const bytes = how === 'gzip' ? gzipSync(text) : text;
      const sent = cut === 'cut' ? bytes.subarray(0, CUT_AT) : bytes;
      res.writeHead(200, { 'content-type': 'application/json', ...(how === 'chunked' ? {} : { 'content-length': String(bytes.length) }), ...(how === 'gzip' ? { 'content-encoding': 'gzip' } : {}) });
      // Small writes: the client receives many chunks, the bound passed in the middle of one.
      let at = 0;
      const next = (): void => {
        if (at >= sent.length) return void (cut === 'cut' ? res.socket?.destroy() : res.end());
        const piece = sent.subarray(at, at + 7001);
        at += piece.length;
        res.write(piece, next);
      };
      next();
    });
  });
  after(async () => {
    HELD.bytes = bound;
    await server.close();
  });

  /** `apiwb run` of `name` (sent as `how`, cut when told) with the bound at `held`; its exit code, its lines (times left out), its --out file. */
  const run = async (url: string, held: number, out: boolean, extra: readonly string[] = []): Promise<Said> => {
    const name = url.split('.')[0]!;
    const file = join(server.dir, `${name}.http`);
    const outFile = join(server.dir, `${name}.ndjson`);
    rmSync(outFile, { force: true });
    writeFileSync(file, `${DIRECTIVE[name] ?? ''}GET {{base}}/${url}\n`);
    HELD.bytes = held;
    try {
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--timeout', '5000', ...extra, ...(out ? ['--out', outFile] : [])]);
      const lines = (r.stdout + r.stderr).replace(/\d+(\.\d+)? ?ms\b/g, '0 ms');
      return { code: r.code, out: lines, file: existsSync(outFile) ? readFileSync(outFile, 'utf8') : '' };
    } finally {
      HELD.bytes = bound;
    }
  };
  const fileRows = (said: Said): unknown[] => said.file.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);

  for (const how of ['length', 'chunked', 'gzip']) {
    for (const name of ['array', 'wrapped', 'numbers', 'object', 'string', 'business', 'value', 'escaped']) {
      void it(`${name} (${how}): held and streamed say the same, the oracle's rows, with --out and without`, async () => {
        const size = Buffer.byteLength(BODIES[name]!);
        const rows = oracle(BODIES[name]!, DIRECTIVE[name] ? 'generic' : '');
        for (const out of [false, true]) {
          const held = await run(`${name}.${how}`, size, out);
          const streamed = await run(`${name}.${how}`, size - 1, out);
          assert.deepEqual(held, streamed, `--out ${out}`);
          assert.equal(printedRows(held.out), rows.length, held.out);
          if (out) assert.deepEqual(fileRows(held), rows);
          assert.equal(held.code, name === 'business' ? 1 : 0, held.out);
        }
      });
    }

    if (how === 'gzip') continue;
    void it(`a body cut mid-stream (${how}), within the bound and past it: the same run, the rows fully received in --out`, async () => {
      for (const name of ['wrapped', 'value']) {
        const received = wholeRowsIn(BODIES[name]!.slice(0, CUT_AT));
        for (const out of [false, true]) {
          // Past the bound well before the cut and just before it (streamed), then within it (held, the read fails: replayed).
          const said: Said[] = [];
          for (const bound of [CUT_AT - 100_000, CUT_AT - 1, CUT_AT, Buffer.byteLength(BODIES[name]!)]) said.push(await run(`${name}.${how}.cut`, bound, out));
          const [streamed, ...held] = said;
          for (const said of held) assert.deepEqual(said, streamed);
          assert.equal(streamed!.code, 1, streamed!.out);
          assert.match(streamed!.out, /dropped in the middle of the response body/, streamed!.out);
          if (out) assert.equal(fileRows(streamed!).length, received, `${name}: ${streamed!.out}`);
          // Counted only, read at a rows field: the line counts the rows fully received.
          else if (name === 'value') assert.equal(printedRows(streamed!.out), received, streamed!.out);
        }
      }
    });

    void it(`a malformed body (${how}): refused in the same words at the same byte, held or streamed`, async () => {
      const size = Buffer.byteLength(BODIES['bad']!);
      for (const out of [false, true]) {
        const held = await run(`bad.${how}`, size, out, ['--all-pages']);
        const streamed = await run(`bad.${how}`, BAD_AT - 100, out, ['--all-pages']);
        // The fault in the held chunks, replayed once the bound is passed after it.
        const replayed = await run(`bad.${how}`, BAD_AT + 30_000, out, ['--all-pages']);
        assert.deepEqual(replayed, streamed);
        assert.deepEqual(held, streamed);
        assert.equal(held.code, 1, held.out);
        assert.match(held.out, new RegExp(`malformed JSON at byte ${BAD_AT}\\b`), held.out);
      }
    });
  }

  void it('1E400 with --out keeps its text, held or streamed (not Infinity, not null)', async () => {
    const size = Buffer.byteLength(BODIES['lossy']!);
    for (const held of [size, size - 1]) {
      const said = await run('lossy.length', held, true);
      assert.equal(said.code, 0, said.out);
      const lines = said.file.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 3000);
      assert.ok(lines.every((l) => l.includes('"n":1E400')), lines[0]);
    }
  });
});
