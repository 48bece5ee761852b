// Rule: a record compare sees a number by the value its text names, not by the double JSON.parse makes
// of it (src/core/compare/numberValue.ts). Two numbers whose texts name different values (past 2^53, or
// past a double's range with opposite signs) are different records — a field, the key itself, or the
// content records without a key are matched by — though JSON.parse reads each pair as one double; two
// texts of one value (1.0 and 1, 1e2 and 100, 0.10 and 0.1) are the same number. `--out` writes such a
// number as it came (a key: its exact value).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-number-text-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** [what, side A's record, side B's, options, the verdict]. */
const cases: [string, string, string, string[], 'differ' | 'agree'][] = [
  ['a field 12345678901234567890 vs 12345678901234567891', '{"k":1,"v":12345678901234567890}', '{"k":1,"v":12345678901234567891}', ['--key', 'k'], 'differ'],
  ['the key 12345678901234567890 vs 12345678901234567891', '{"k":12345678901234567890,"v":1}', '{"k":12345678901234567891,"v":1}', ['--key', 'k'], 'differ'],
  ['no key, matched by content: 9007199254740993 vs 9007199254740992', '{"v":9007199254740993}', '{"v":9007199254740992}', [], 'differ'],
  ['1e400 vs -1e400', '{"k":1,"v":1e400}', '{"k":1,"v":-1e400}', ['--key', 'k'], 'differ'],
  ['1.0 vs 1', '{"k":1,"v":1.0}', '{"k":1,"v":1}', ['--key', 'k'], 'agree'],
  ['the key 1.0 vs 1, a field 1e2 vs 100', '{"k":1.0,"v":1e2}', '{"k":1,"v":100}', ['--key', 'k'], 'agree'],
  ['no key: 0.10 vs 0.1, -0 vs 0', '{"v":0.10,"w":-0}', '{"v":0.1,"w":0}', [], 'agree'],
  ['12345678901234567890 vs 1.234567890123456789e19 (one value)', '{"k":1,"v":12345678901234567890}', '{"k":1,"v":1.234567890123456789e19}', ['--key', 'k'], 'agree'],
];

void describe('apiwb compare: a number is the value its text names', () => {
  for (const [what, a, b, args, verdict] of cases) {
    void it(`${what}: ${verdict}, exit ${verdict === 'agree' ? 0 : 1}`, async () => {
      const [pa, pb] = [join(dir, 'a.ndjson'), join(dir, 'b.ndjson')];
      writeFileSync(pa, `${a}\n`);
      writeFileSync(pb, `${b}\n`);
      const result = await commandInProcess(compareCommand, [pa, pb, ...args]);
      assert.equal(/ agree: /.test(result.stdout), verdict === 'agree', result.stdout);
      assert.equal(result.code, verdict === 'agree' ? 0 : 1, result.stdout + result.stderr);
    });
  }

  void it('--out writes the changed field as its texts, the key as its exact value', async () => {
    const [pa, pb, out] = [join(dir, 'a.ndjson'), join(dir, 'b.ndjson'), join(dir, 'diffs.ndjson')];
    writeFileSync(pa, '{"k":12345678901234567890,"v":12345678901234567890}\n');
    writeFileSync(pb, '{"k":12345678901234567890,"v":12345678901234567891}\n');
    const result = await commandInProcess(compareCommand, [pa, pb, '--key', 'k', '--out', out]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const line = readFileSync(out, 'utf8');
    // The key as the comparison keys it: its exact value in the normal form (numberValue.ts), not 12345678901234567000.
    assert.match(line, /"key":1\.234567890123456789e19,/, line);
    assert.match(line, /"path":"v","kind":"changed","before":12345678901234567890,"after":12345678901234567891/, line);
  });
});
