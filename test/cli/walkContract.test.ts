// The contract check of a walk whose rows stream to the output: the stand-in for rows the walk did not
// hold is never read as rows (never reported as drift); the first rows, held as they passed, are compared
// as rows held are. Over real HTTP against the sandbox, with the fundraising service's OpenAPI imported as
// an overlay (which documents the transactions' layout): before, the last page's 95 rows were reported as
// "$.value[N]: documented as object, received undefined".
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImportOpenApi } from '../../src/cli/importCommand';
import { runInProcess } from './inProcess';
import { openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';

void describe('apiwb run --all-pages --check-contract with an imported overlay', () => {
  let w: SandboxWorkspace;
  let overlay = '';
  before(async () => {
    w = await openSandboxWorkspace();
    overlay = join(w.dir, 'overlay.json');
    const quiet = { stdout: () => true, stderr: () => true, env: {} };
    assert.equal(await runImportOpenApi([`${w.descriptor.fundraising.baseUrl}/openapi/v1.json`, '--out', overlay], quiet as never), 0);
  });
  after(async () => { await w.close(); });

  void it('reports no drift for rows streamed to the output, and compares the rows it held as they passed', async () => {
    const file = join(w.dir, 'payments.http');
    writeFileSync(file, '# @name payments\nGET {{fundraising_base_url}}/v1/transactions?limit=250\nAuthorization: Basic {{$auth.token("fundraising")}}\nX-API-Key: {{tenant_code}}\n');
    const r = await runInProcess([file, '--env', 'sandbox', '--env-file', w.envFile, '--check-contract', '--all-pages', '--overlay', overlay], w.secrets);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /contract: no drift/);
    assert.doesNotMatch(r.stdout, /received undefined/);
    // The last page's 95 rows were all held as they passed (up to 200 are), so all were compared.
    assert.doesNotMatch(r.stdout, /not checked: \$\.value/);
  });
});
