// Generated code never carries a secret the run holds, however a language quotes it: the request made
// ready is searched for every held value (plain and encoded, every part, as the send boundary searches it)
// before any printer runs. A search of the printed code would miss a value its printer escaped: a held
// password with an apostrophe (APIWB_SECRET_ENG_PASSWORD="O'Brien-pass-2024") written in a body reads
// `'\''` in curl, `\'` in js-fetch and node, `''` in PowerShell. Every language and paging loop refuses it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNIPPET_IDS } from '../../src/core/codegen';
import { generated } from './generateProcess';

const PASSWORD = "O'Brien-pass-2024";

void describe('apiwb generate refuses a held secret however its language would quote it', () => {
  let dir = '';
  let file = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-genheld-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: {
      base: 'http://127.0.0.1:9', auth: 'http://127.0.0.1:9/auth',
      Security: { Auth: { eng: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{auth}}/token', Username: 'ann' } } },
    } }));
    file = join(dir, 'g.http');
    writeFileSync(file, ['# @name held', '# @paging page-headers', 'POST {{base}}/notes', 'Content-Type: application/json', '', `{"note": "${PASSWORD}"}`, ''].join('\n'));
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  const cases = [...SNIPPET_IDS.map((lang) => [lang, []] as const), ...['ts', 'python'].map((lang) => [lang, ['--paging']] as const)];
  for (const [lang, extra] of cases) {
    void it(`${lang}${extra.length ? ' --paging' : ''}: the held password (with an apostrophe) in the body is refused`, async () => {
      const r = await generated([file, '--name', 'held', '--lang', lang, '--env', 'local', ...extra], { APIWB_SECRET_ENG_PASSWORD: PASSWORD });
      assert.ok(!r.stdout.includes('Brien-pass-2024'), `generated ${lang} code holds the password, escaped (exit ${r.code}):\n${r.stdout}`);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /the body of the request holds a secret value/);
      assert.ok(!r.stderr.includes('Brien-pass-2024'), r.stderr);
    });
  }
  void it('the same request without the secret held is generated (the refusal is the secret\'s)', async () => {
    const r = await generated([file, '--name', 'held', '--lang', 'curl', '--env', 'local'], {});
    assert.equal(r.code, 0, r.stderr);
  });
});
