// A paging loop made by `apiwb generate --paging` sends the request's own numbers on every page. The
// first request's JSON body was read with JSON.parse and printed back, so CtcID 12345678901234567890 went
// into the TypeScript and the Python loop as 12345678901234567000: every page another customer's (found by
// review). Now the body is read keeping such numbers' text (numberText.ts): the Python loop writes the
// whole number as written (a Python int is exact); a TypeScript loop (a JavaScript number cannot hold it)
// and a Python loop asked for a number no float holds (1E400) are refused in words, never printed changed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generated } from './generateProcess';

const dir = mkdtempSync(join(tmpdir(), 'apiwb-gen-num-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'leads.http');
const request = (name: string, ctc: string): string => `###\n# @name ${name}\n# @paging offset-remaining\nPOST {{base}}/leads\nContent-Type: application/json\n\n{"CtcID":${ctc},"PageSize":2,"Offset":0}\n`;
writeFileSync(file, request('leads', '12345678901234567890') + request('huge', '1E400') + request('plain', '42'));
const envFile = join(dir, 'http-client.env.json');
writeFileSync(envFile, JSON.stringify({ local: { base: 'http://127.0.0.1:9' } }));
const generate = (name: string, lang: string) => generated([file, '--name', name, '--paging', '--lang', lang, '--env-file', envFile, '--env', 'local'], {});

void describe('apiwb generate --paging: the body\'s numbers as the request writes them', () => {
  void it('python: CtcID 12345678901234567890 is in the loop, not 12345678901234567000', async () => {
    const made = await generate('leads', 'python');
    assert.equal(made.code, 0, made.stderr);
    assert.doesNotMatch(made.stdout, /12345678901234567000/);
    assert.match(made.stdout, /"CtcID": 12345678901234567890,/);
  });
  for (const [name, lang, text] of [['leads', 'ts', '12345678901234567890'], ['huge', 'python', '1E400'], ['huge', 'ts', '1E400']] as const) {
    void it(`${lang}: ${text} is refused in words, no code printed`, async () => {
      const made = await generate(name, lang);
      assert.notEqual(made.code, 0);
      assert.equal(made.stdout, '');
      assert.match(made.stderr, new RegExp(`the body holds the number ${text}, which a (TypeScript|Python) loop would not send as written`));
    });
  }
  for (const lang of ['ts', 'python']) {
    void it(`${lang}: a number JSON.parse keeps is printed as before`, async () => {
      const made = await generate('plain', lang);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /"CtcID": 42,/);
    });
  }
});
