// Invariant (a): no JWT reaches an output file or a panel. The vocabulary itself says a JWT is a secret
// under any name (isLiteralSecret: "a JWT under any name", src/core/secrets/vocabulary.ts:199-205), yet a
// response row holding one under a name that is not a secret word is written and shown as it came: a
// login answer `{"jwt":"eyJ…","user":…}` (Strapi's shape) or an OAuth `client_assertion`. Neither --out
// (Redactor.row) nor the panel (Redactor.value) looks at a value's shape: `jwt` and `assertion` are no
// secret words (vocabulary.ts:28 SECRET_WORDS, :86-91 isSecretName), and redactTree masks by name only
// (src/core/secrets/redact.ts:315-340).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redactor } from '../../src/core/secrets/redact';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4iLCJleHAiOjQxMDI0NDQ4MDB9.c2lnbmF0dXJlLXZhbHVlLXgxMjM0NTY3OA';
const ROWS = [{ jwt: JWT, user: 'ann' }, { client_assertion: JWT, user: 'bob' }];

void describe('a JWT in a row under a plain name', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-rev-jwtfield-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ROWS));
    });
  });
  after(() => server.close());

  void it('the panel does not show it', () => {
    assert.ok(!JSON.stringify(new Redactor().value(ROWS)).includes(JWT));
  });

  void it('nor inside other text under a plain name (unlisted case)', () => {
    const row = { note: `signed in as ann, token ${JWT} (expires soon)`, [`k-${JWT}`]: 1 };
    assert.ok(!JSON.stringify(new Redactor().row(row)).includes(JWT));
  });

  void it('--out does not write it', async () => {
    const file = join(server.dir, 'login.http');
    writeFileSync(file, 'GET {{base}}/login\n');
    const out = join(server.dir, 'login.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    const text = readFileSync(out, 'utf8');
    assert.ok(!text.includes(JWT), `a JWT reached --out:\n${text}`);
  });
});
