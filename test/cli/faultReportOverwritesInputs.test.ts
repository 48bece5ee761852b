// Every file a run reads is an input no output overwrites: .env files and certificates too, a multipart
// part's file too. `apiwb run` stopped by an input fault before its outputs are claimed (here: an
// environment the env file does not have, exit 2) still writes the --report asked for
// (src/cli/runFaultReport.ts), claimed against every file the run would have read. It once knew only the
// .http files, their `< file` bodies, the env files, overlays and --cacert: `--reporter junit --report .env`
// wrote the JUnit XML over the .env `{{$dotenv}}` reads (the user's secrets gone), the same with a
// multipart `< ./file` part. A `< file` body is refused (control). Likewise the client key the
// environment's SSLConfiguration names, when the fault is another one (an --overlay that does not read),
// the environment being known.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const DOTENV = 'API_SECRET=s3cr3t-value-of-the-user-42\n';
const PART = 'name,amount\nada,12\n';
const BODY = '{"a": 1}\n';

void describe('the fault report of a run stopped before its outputs were claimed: no input overwritten', () => {
  let server: LocalServer;

  before(async () => {
    server = await startLocalServer('apiwb-fault-report-', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
    });
    writeFileSync(join(server.dir, '.env'), DOTENV);
    writeFileSync(join(server.dir, 'part.csv'), PART);
    writeFileSync(join(server.dir, 'body.json'), BODY);
    writeFileSync(join(server.dir, 'dotenv.http'), '# @name withDotenv\nGET {{base}}/items\nX-Thing: {{$dotenv API_SECRET}}\n');
    writeFileSync(join(server.dir, 'multipart.http'), [
      '# @name upload', 'POST {{base}}/upload', 'Content-Type: multipart/form-data; boundary=B', '',
      '--B', 'Content-Disposition: form-data; name="file"; filename="part.csv"', 'Content-Type: text/csv', '', '< ./part.csv', '--B--', '',
    ].join('\n'));
    writeFileSync(join(server.dir, 'body.http'), '# @name withBody\nPOST {{base}}/items\nContent-Type: application/json\n\n< ./body.json\n');
  });

  after(async () => { await server.close(); });

  const CASES: ReadonlyArray<readonly [string, string, string, string]> = [
    ['the .env {{$dotenv}} reads', 'dotenv.http', '.env', DOTENV],
    ["a multipart part's file", 'multipart.http', 'part.csv', PART],
    ['a < file body (control)', 'body.http', 'body.json', BODY],
  ];
  for (const [what, http, target, content] of CASES) {
    void it(`--report naming ${what} is refused, the file left as it was`, async () => {
      const result = await runInProcess([join(server.dir, http), '--env', 'no-such-environment', '--env-file', server.envFile, '--reporter', 'junit', '--report', join(server.dir, target)]);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.equal(readFileSync(join(server.dir, target), 'utf8'), content, `${target} was overwritten by the report: ${result.stderr}`);
    });
  }
});

void describe("the fault report never overwrites the environment's client certificate key", () => {
  let server: LocalServer;
  const KEY = '-----BEGIN PRIVATE KEY-----\nnot-a-real-key\n-----END PRIVATE KEY-----\n';

  before(async () => {
    server = await startLocalServer('apiwb-fault-report-key-', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
    });
    writeFileSync(join(server.dir, 'client.key'), KEY);
    writeFileSync(join(server.dir, 'client.pem'), 'not a real certificate\n');
    writeFileSync(server.envFile, JSON.stringify({ local: { base: server.origin, SSLConfiguration: { clientCertificate: 'client.pem', clientCertificateKey: 'client.key' } } }));
    writeFileSync(join(server.dir, 'plain.http'), '# @name plain\nGET {{base}}/items\n');
  });

  after(async () => { await server.close(); });

  void it('--report naming the client key is refused, the key left as it was', async () => {
    const result = await runInProcess([join(server.dir, 'plain.http'), '--env', 'local', '--env-file', server.envFile, '--overlay', join(server.dir, 'no-such-overlay.json'), '--reporter', 'junit', '--report', join(server.dir, 'client.key')]);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.equal(readFileSync(join(server.dir, 'client.key'), 'utf8'), KEY, `client.key was overwritten by the report: ${result.stderr}`);
  });
});
