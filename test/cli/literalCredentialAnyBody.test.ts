// The rule of a request's literal credentials (src/core/secrets/literalCredentials.ts) holds for bodies no
// defect listed: a multipart/form-data part named `password`, a GraphQL body's `variables` holding a
// `token`, and a JSON number under a secret name (`"service_key": 31415926535`). Generate refuses each
// (naming the field), Save to Collection refuses each (src/core/collections/requestBlocks.ts asks the
// same rule); the Postman export writes a `{{variable}}` in their place and reports it; a part that is a
// file (`filename=`, `< ./file`) is left.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretProblem } from '../../src/core/collections/requestBlocks';
import { exportPostmanCollection } from '../../src/core/interop/postman/exportCollection';
import { generated } from './generateProcess';

const PASSWORD = 'literal-multipart-pass-5150';
const TOKEN = 'literal-graphql-token-2718';
const NUMBER = '31415926535';

const HTTP = [
  '# @name upload', 'POST {{base}}/upload', 'Content-Type: multipart/form-data; boundary=XyZ', '',
  '--XyZ', 'Content-Disposition: form-data; name="user"', '', 'ann',
  '--XyZ', 'Content-Disposition: form-data; name="password"', '', PASSWORD,
  '--XyZ', 'Content-Disposition: form-data; name="private_key"; filename="key.pem"', 'Content-Type: text/plain', '', '< ./key.pem',
  '--XyZ--', '',
  '###', '# @name graphql', 'POST {{base}}/graphql', 'Content-Type: application/json', '',
  JSON.stringify({ query: 'query ($token: String!) { me(token: $token) { id } }', variables: { token: TOKEN } }), '',
  '###', '# @name number', 'POST {{base}}/login', 'Content-Type: application/json', '', `{"user": {{user}}, "service_key": ${NUMBER}}`, '',
].join('\n');

void describe('a literal credential in a multipart part or GraphQL variables', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-anybody-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: 'http://127.0.0.1:9', user: '"ann"' } }));
    writeFileSync(join(dir, 'key.pem'), 'not a key\n');
    writeFileSync(join(dir, 'g.http'), HTTP);
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  // {{user}} unquoted: not JSON until resolved, so the number is found by the textual pass.
  for (const [name, field, literal] of [['upload', 'password', PASSWORD], ['graphql', 'token', TOKEN], ['number', 'service_key', NUMBER]] as const) {
    void it(`generate ${name}: refused, the body field ${field} named`, async () => {
      for (const lang of ['curl', 'python-requests', 'powershell']) {
        const r = await generated([join(dir, 'g.http'), '--name', name, '--lang', lang, '--env', 'local'], {});
        assert.ok(!r.stdout.includes(literal), `generated ${lang} code holds the literal (exit ${r.code}):\n${r.stdout}`);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, new RegExp(`the body field ${field} is written literally`));
      }
    });
  }

  void it('a collection refuses each (Save to Collection asks the same rule)', () => {
    for (const [block, field] of HTTP.split('###\n').map((text, i) => [text, ['password', 'token', 'service_key'][i]!] as const)) {
      assert.match(secretProblem(block) ?? '', new RegExp(`its body field ${field} holds a literal secret`), block);
    }
  });

  void it('the Postman export writes references in their place and keeps the file part', () => {
    const exported = exportPostmanCollection([{ path: 'g.http', text: HTTP }], { name: 'c' });
    for (const literal of [PASSWORD, TOKEN, NUMBER]) assert.ok(!exported.text.includes(literal), `the export holds ${literal}:\n${exported.text}`);
    assert.deepEqual(exported.dropped.map((d) => `${d.where}: ${d.what} → ${d.replacedBy ?? ''}`), [
      'g.http: upload: body field password → {{password}}',
      'g.http: graphql: body field token → {{token}}',
      'g.http: number: body field service_key → {{service_key}}',
    ]);
    assert.match(exported.text, /name=\\"user\\"\\n\\nann\\n/, 'the part that is no secret stays');
    assert.match(exported.text, /filename=\\"key.pem\\"\\nContent-Type: text\/plain\\n\\n< .\/key.pem\\n/, 'a file part is a file, not a secret');
  });
});
