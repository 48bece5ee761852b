// The held body never answers otherwise than the streamed read (src/core/paging/heldBody.ts, the invariant):
// for every body of a corpus made to find where JSON.parse and the streamed read part (nesting at and past
// the limit, a key given twice at depths 0 to 3 and inside rows, a first key given again after other
// arrays, bodies malformed at every byte, not JSON, a BOM, invalid UTF-8, big numbers, escapes, empty and
// blank, scalars, a business failure), `apiwb run` with the budget huge (every body held) says exactly what
// it says with the budget at 0 (every body streamed): the exit code, the printed lines (times left out:
// rows, counts, business verdict, fault words and byte) and the --out file, line by line as JSON. Read
// with no style, with a style's rows field (counted without --out), and with an items= path. The server is
// the test's own, on 127.0.0.1, each body written in small pieces.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HELD } from '../../src/core/paging/heldBody';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const rows = (n: number, from = 0): string => Array.from({ length: n }, (_, i) => `{"id":${from + i},"s":"r${i}"}`).join(',');
const nest = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Bodies by name (bytes: latin1 where a body holds bytes that are not UTF-8). */
const BODIES: Record<string, string> = {
  // Nesting at the limit (512) and past it: in a row, in a field, the body itself.
  deepRow512: `{"value":[${rows(3)},${nest(510)}]}`,
  deepRow513: `{"value":[${rows(3)},${nest(511)}]}`,
  deepField: `{"meta":${nest(513)},"value":[${rows(3)}]}`,
  deepTop: `[${rows(2)},${nest(600)}]`,
  // A key given twice, depth 0 to 3, and inside rows.
  twiceTop: `{"value":[${rows(3)}],"value":[${rows(2, 10)}]}`,
  twiceOther: `{"a":1,"value":[${rows(3)}],"a":2}`,
  twiceDepth2: `{"m":{"k":1,"k":[1,2,3,4]},"value":[${rows(3)}]}`,
  twiceDepth3: `{"m":{"n":{"k":1,"k":2}},"value":[${rows(3)}]}`,
  twiceInRow: `{"value":[{"id":1,"id":2},{"id":3}]}`,
  twiceEscaped: `{"value":[${rows(3)}],"v\\u0061lue":[${rows(4, 10)}]}`,
  firstKeyAgain: `{"k0":[${rows(5)}],"k1":[${rows(2)}],"k2":[${rows(5, 20)}],"k0":[${rows(1)}]}`,
  twiceOnPath: `{"a":{"b":[${rows(3)}],"b":[${rows(2)}]}}`,
  // Not JSON, or not only.
  notJson: 'hello, not JSON',
  html: '<html><body>error</body></html>',
  bom: `\ufeff{"value":[${rows(2)}]}`,
  trailing: `{"value":[${rows(2)}]} x`,
  nbspAfter: `{"value":[${rows(2)}]}\u00a0`,
  latin1: `{"value":[{"s":"caf\xe9"}]}`,
  // Numbers and escapes.
  bigNumbers: `{"Total":1E400,"value":[{"n":1E400},{"n":12345678901234567890},{"n":-0},{"n":1.50}]}`,
  escapes: `{"value":[{"s":"a\\"b\\\\c\\u00e9\\ud800\\n"},{"k\\u0065y":"\\/"}]}`,
  // Empty, blanks, scalars, arrays.
  empty: '',
  blanks: ' \r\n\t ',
  string: '"just a string"',
  number: '42',
  nil: 'null',
  array: `[${rows(4)}]`,
  numbers: `[${Array.from({ length: 50 }, (_, i) => i).join(',')}]`,
  emptyArrays: '{"a":[],"b":[[]],"value":[]}',
  // The rows two levels down, and a business failure.
  twoDown: `{"d":{"v":[${rows(4)}]},"e":{"w":[${rows(2)}]}}`,
  business: `{"Success":false,"Error":"the quota is used up","value":[${rows(2)}]}`,
  nested: `{"a":{"b":[${rows(3)}],"c":1}}`,
};

/** A small page, malformed at every byte: cut there, or a byte doubled there. */
const SMALL = '{"value":[{"id":1,"t":"a b"},{"id":2}],"next_link":null}';
for (let at = 0; at <= SMALL.length; at++) {
  BODIES[`cut${at}`] = SMALL.slice(0, at);
  BODIES[`dup${at}`] = `${SMALL.slice(0, at)}${SMALL[Math.min(at, SMALL.length - 1)]}${SMALL.slice(at)}`;
}

/** The ways a body is read: no style, a style's rows field, an items= path. */
const READS: Record<string, string> = { none: '', field: '# @paging generic next=next_link items=value\n', path: '# @paging generic next=next_link items=a.b\n' };

const ALL = { ...HELD };
const HUGE = { bytes: 1e12, values: 1e12, longestArray: 1e12, wideMembers: 1e12 };
const NONE = { bytes: 0, values: 0, longestArray: 0, wideMembers: 0 };

interface Said { readonly code: number; readonly out: string; readonly file: unknown[] }

void describe('held within the budget or streamed: the same answer, for every body of the corpus', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-held-agrees-', (req, res) => {
      const text = BODIES[decodeURIComponent((req.url ?? '/').slice(1))] ?? '{}';
      const bytes = Buffer.from(text, /[\x80-\xff]/.test(text) && !/[^\x00-\xff]/.test(text) ? 'latin1' : 'utf8');
      res.writeHead(200, { 'content-type': 'application/json' });
      let at = 0;
      const next = (): void => {
        if (at >= bytes.length) return void res.end();
        const piece = bytes.subarray(at, at + 61);
        at += piece.length;
        res.write(piece, next);
      };
      next();
    });
  });
  after(async () => {
    Object.assign(HELD, ALL);
    await server.close();
  });

  const run = async (name: string, read: string, budget: typeof HUGE, out: boolean): Promise<Said> => {
    const file = join(server.dir, `${name}.${read}.http`);
    const outFile = join(server.dir, `${name}.${read}.ndjson`);
    rmSync(outFile, { force: true });
    writeFileSync(file, `${READS[read]}# @name ${name}\nGET {{base}}/${encodeURIComponent(name)}\n`);
    Object.assign(HELD, budget);
    try {
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--timeout', '5000', ...(out ? ['--out', outFile] : [])]);
      const lines = (r.stdout + r.stderr).replace(/\d+(\.\d+)? ?ms\b/g, '0 ms');
      const written = existsSync(outFile) ? readFileSync(outFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown) : [];
      return { code: r.code, out: lines, file: written };
    } finally {
      Object.assign(HELD, ALL);
    }
  };

  const names = Object.keys(BODIES);
  for (const read of Object.keys(READS)) {
    void it(`read ${read === 'none' ? 'with no style' : read === 'field' ? 'at a style\'s rows field' : 'at an items= path'}: ${names.length} bodies, --out and not`, async () => {
      const differ: string[] = [];
      for (const name of names) {
        for (const out of [false, true]) {
          const held = await run(name, read, HUGE, out);
          const streamed = await run(name, read, NONE, out);
          try {
            assert.deepEqual(held, streamed);
          } catch {
            differ.push(`${name} (--out ${out}):\n  held:     ${JSON.stringify(held)}\n  streamed: ${JSON.stringify(streamed)}`);
          }
        }
      }
      assert.deepEqual(differ, [], differ.join('\n'));
    });
  }
});
