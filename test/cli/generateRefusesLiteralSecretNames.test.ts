// Adversarial review (invariant: no secret in generated code). README, Generate code: "No secret is ever
// in it … a credential written literally in the request is refused." `Authorization: Bearer literal` is
// refused, but src/core/codegen/request.ts refuses only headers of CREDENTIAL_HEADER_NAMES: a literal
// under a header the vocabulary calls a secret (`X-Service-Token`; isSecretName) or in a query parameter
// named as one (`api_token`) is printed into the snippet, exit 0.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generated } from './generateProcess';

void describe('rev: generate refuses literal credentials under any secret name', () => {
  let dir = '';
  let file = '';

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-gen-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: 'http://127.0.0.1:9' } }));
    file = join(dir, 'g.http');
    writeFileSync(file, [
      '# @name header', 'GET {{base}}/items', 'X-Service-Token: literal-service-token-123456', '',
      '###', '# @name query', 'GET {{base}}/items?api_token=literal-query-token-654321', '',
      '###', '# @name control', 'GET {{base}}/items', 'Authorization: Bearer literal-bearer-777777', '',
    ].join('\n'));
  });

  after(() => { rmSync(dir, { recursive: true, force: true }); });

  for (const [name, literal] of [['header', 'literal-service-token-123456'], ['query', 'literal-query-token-654321'], ['control', 'literal-bearer-777777']] as const) {
    void it(`${name}: the literal never reaches the code`, async () => {
      const result = await generated([file, '--name', name, '--lang', 'curl', '--env', 'local'], {});
      assert.ok(!result.stdout.includes(literal), `generated code holds ${literal} (exit ${result.code}):\n${result.stdout}`);
      assert.notEqual(result.code, 0, result.stdout + result.stderr);
    });
  }
});
