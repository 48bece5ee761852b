// The CLI's own words are never masked: the Redactor masks secret values and credentials, not the product's
// text that names the Basic and Bearer schemes (an env file holding a secret gets advice naming the commands).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runInProcess } from './inProcess';

void describe('apiwb run says its own words whole', () => {
  void it('an env file holding a password: exit 2, the advice names Set Basic Credentials and Paste Bearer Token, the password never', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-words-'));
    try {
      const password = 'Literal-Pass-8841';
      writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { base: 'http://127.0.0.1:9', Security: { Auth: { engagement: {
        Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': 'http://127.0.0.1:9/token', Username: 'demo', Password: password,
      } } } } }, null, 2));
      writeFileSync(join(dir, 'a.http'), 'GET {{base}}/x\n');
      const result = await runInProcess([join(dir, 'a.http'), '--env', 'dev'], { APIWB_SECRET_ENGAGEMENT_PASSWORD: password });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /Sign In \/ Set Basic Credentials \/ Paste Bearer Token commands/);
      assert.doesNotMatch(result.stderr, /Basic \*\*\*|Bearer \*\*\*/);
      assert.ok(!result.stderr.includes(password));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
