// Adversarial review (invariant: no secret value in what is printed or reported). README: every value of
// http-client.private.env.json "is a secret — hidden from every line, --out file and report". A value
// with a space and a slash ("open sesame/42") in a query parameter is printed as the URL parser writes
// it, `open%20sesame/42`: neither the value as it is, nor encodeURIComponent's `open%20sesame%2F42`, nor
// the form's `open+sesame%2F42` — the forms the Redactor knows (src/core/secrets/secretForms.ts, used by
// src/core/secrets/redact.ts). The request's line and the JUnit report both show it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('rev: a private value in a query, as the URL writes it, is masked', () => {
  let server: LocalServer;

  before(async () => {
    server = await startLocalServer('apiwb-rev-redact-', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"items":[{"id":1}]}');
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { pw: 'open sesame/42' } }));
    writeFileSync(join(server.dir, 'q.http'), '# @name withSecretQuery\nGET {{base}}/items?p={{pw}}\n');
  });

  after(async () => { await server.close(); });

  void it('shows no part of the value in the line or the report', async () => {
    const report = join(server.dir, 'report.xml');
    const result = await runInProcess([join(server.dir, 'q.http'), '--env', 'local', '--env-file', server.envFile, '--reporter', 'junit', '--report', report]);
    const said = result.stdout + result.stderr;
    assert.doesNotMatch(said, /sesame/, said);
    assert.doesNotMatch(readFileSync(report, 'utf8'), /sesame/, 'the JUnit report shows the value');
  });
});
