// Invariant E (and C): a paging loop made by `apiwb generate --paging` sends the request as written. The
// first request's JSON body is read with JSON.parse and printed back (src/core/codegen/paging/common.ts
// firstBody), so CtcID 12345678901234567890 is written into the TypeScript and the Python loop as
// 12345678901234567000: every page the loop asks for is another customer's. The snippets (`--lang curl`,
// `python`) keep the text; the loops should too.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generated } from './generateProcess';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-gen-num-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'leads.http');
writeFileSync(file, '# @name leads\n# @paging offset-remaining\nPOST {{base}}/leads\nContent-Type: application/json\n\n{"CtcID":12345678901234567890,"PageSize":2,"Offset":0}\n');
const envFile = join(dir, 'http-client.env.json');
writeFileSync(envFile, JSON.stringify({ local: { base: 'http://127.0.0.1:9' } }));

void describe('apiwb generate --paging: the body\'s numbers as the request writes them', () => {
  for (const lang of ['ts', 'python']) {
    void it(`${lang}: CtcID 12345678901234567890 is in the loop, not 12345678901234567000`, async () => {
      const made = await generated([file, '--name', 'leads', '--paging', '--lang', lang, '--env-file', envFile, '--env', 'local'], {});
      assert.equal(made.code, 0, made.stderr);
      assert.doesNotMatch(made.stdout, /12345678901234567000/, 'the loop sends another CtcID');
      assert.match(made.stdout, /12345678901234567890/);
    });
  }
});
