// Generated code never carries a secret (README: "No secret is ever in it … a credential written literally
// in the request is refused"), whatever part of the request holds it: a literal under a secret-named field
// of a JSON body (`client_secret`) is refused in every snippet language and paging loop, as one in a header
// or the query is, by the one rule of a request's literal credentials (src/core/secrets/literalCredentials.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNIPPET_IDS } from '../../src/core/codegen';
import { generated } from './generateProcess';

const LITERAL = 'literal-client-secret-9999';

void describe('apiwb generate keeps secrets written in a body out of the code', () => {
  let dir = '';
  let file = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-genbody-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: 'http://127.0.0.1:9' } }));
    file = join(dir, 'g.http');
    writeFileSync(file, [
      '# @name named', '# @paging page-headers', 'POST {{base}}/clients', 'Content-Type: application/json', '', `{"client_id": "ann", "client_secret": "${LITERAL}"}`, '',
      '###', '# @name form', 'POST {{base}}/token', 'Content-Type: application/x-www-form-urlencoded', '', `grant_type=client_credentials&client_secret=${LITERAL}`, '',
    ].join('\n'));
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  for (const lang of SNIPPET_IDS) {
    void it(`${lang}: a literal client_secret in the JSON body is refused`, async () => {
      const r = await generated([file, '--name', 'named', '--lang', lang, '--env', 'local'], {});
      assert.ok(!r.stdout.includes(LITERAL), `generated ${lang} code holds the literal client_secret (exit ${r.code}):\n${r.stdout}`);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /the body field client_secret is written literally/);
    });
  }
  void it('a literal client_secret in a form body is refused too', async () => {
    const r = await generated([file, '--name', 'form', '--lang', 'curl', '--env', 'local'], {});
    assert.ok(!r.stdout.includes(LITERAL), r.stdout);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /the body field client_secret is written literally/);
  });
  for (const lang of ['ts', 'python']) {
    void it(`--paging ${lang}: a literal client_secret in the JSON body is refused`, async () => {
      const r = await generated([file, '--name', 'named', '--lang', lang, '--env', 'local', '--paging'], {});
      assert.ok(!r.stdout.includes(LITERAL), `generated ${lang} paging loop holds the literal client_secret (exit ${r.code}):\n${r.stdout}`);
      assert.notEqual(r.code, 0);
    });
  }
});
