// Generated code never carries a secret (README: "a credential written literally in the request is
// refused"): a password written in the URL's user info (`http://user:pass@host/`) is a credential written
// literally, the same as one in a header, the query or the body (literalCredentials.ts). `apiwb generate`
// refuses it in every snippet language and paging loop, and the code holds no trace of it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNIPPET_IDS } from '../../src/core/codegen';
import { generated } from './generateProcess';

const PASSWORD = 'literal-url-pass-1234';

void describe('apiwb generate refuses a password written in the URL', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-genurl-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: 'http://127.0.0.1:9' } }));
    writeFileSync(join(dir, 'g.http'), `# @name userinfo\n# @paging page-headers\nGET http://ann:${PASSWORD}@127.0.0.1:9/items\n`);
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  for (const lang of SNIPPET_IDS) {
    void it(`${lang}: the password is not in the code`, async () => {
      const r = await generated([join(dir, 'g.http'), '--name', 'userinfo', '--lang', lang, '--env', 'local'], {});
      assert.ok(!r.stdout.includes(PASSWORD), `generated ${lang} code holds the URL's password (exit ${r.code}):\n${r.stdout}`);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /the URL's password \(user:password@\) is written literally/);
      assert.ok(!r.stderr.includes(PASSWORD), r.stderr);
    });
  }
  for (const lang of ['ts', 'python']) {
    void it(`--paging ${lang}: the password is not in the loop`, async () => {
      const r = await generated([join(dir, 'g.http'), '--name', 'userinfo', '--lang', lang, '--env', 'local', '--paging'], {});
      assert.ok(!r.stdout.includes(PASSWORD), `generated ${lang} paging loop holds the URL's password (exit ${r.code}):\n${r.stdout}`);
      assert.notEqual(r.code, 0);
    });
  }
});
