// Invariant (a): no password or token reaches an output file. `--out` is "a report like the panel", yet a
// row whose field (not named as a secret) holds a credential in text keeps it: a URL's password
// (`https://ann:<password>@host`), a Bearer value, a `password=` pair. The panel's redaction of the same
// row (Redactor.value: every string through text()) masks all three; --out's (Redactor.row) only masks
// fields named as secrets and values the run holds. The fault: src/core/secrets/redact.ts:130-142 (row()
// scrubs strings with scrubKnownValues only, not the credential shapes text() masks, :79-89), used by
// src/core/export/redactingSink.ts:22-29 and :70-90 for every --out format.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redactor } from '../../src/core/secrets/redact';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

const PASSWORD = 'hunter2-of-ann-77';
const TOKEN = 'opaque-token-5f4dcc3b5aa765d61d8327deb882cf99';
const ROW = { id: 1, callback: `https://ann:${PASSWORD}@hooks.example.com/in`, note: `Authorization: Bearer ${TOKEN}`, query: `user=ann&password=${PASSWORD}` };

void describe('credentials inside a row text field', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-rev-rowcred-', (req, res) => {
      // Unlisted case: a URL as a JSON writer that escapes slashes writes it (`https:\/\/ann:…@`).
      const body = req.url === '/escaped' ? `[{"id":2,"hook":"https:\\/\\/ann:${PASSWORD}@hooks.example.com\\/in"}]` : JSON.stringify([ROW]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  after(() => server.close());

  void it('the panel masks them', () => {
    const shown = JSON.stringify(new Redactor().value(ROW));
    assert.ok(!shown.includes(PASSWORD) && !shown.includes(TOKEN), shown);
  });

  for (const [path, format] of [['rows', 'ndjson'], ['rows', 'csv'], ['escaped', 'ndjson']] as const) {
    void it(`--out ${format} of /${path} masks them as the panel does`, async () => {
      const file = join(server.dir, `${path}.http`);
      writeFileSync(file, `GET {{base}}/${path}\n`);
      const out = join(server.dir, `${path}.${format}`);
      const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
      assert.ok(existsSync(out));
      const text = readFileSync(out, 'utf8');
      assert.ok(!text.includes(PASSWORD), `a password reached --out:\n${text}`);
      assert.ok(!text.includes(TOKEN), `a Bearer token reached --out:\n${text}`);
    });
  }
});
