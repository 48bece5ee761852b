// A REST Client file may write a request as a curl command (REST Client sends it like any other). `apiwb
// run` does not send it; its help promises exit 1 for "a request not run (… a construct or kind it cannot
// send; said with its file and line)", as it does for a gRPC request. On aa14ca2 the curl request is said
// with a "·" line but the run exits 0 and the summary counts "1 request, 0 failed": CI reports success
// for a file whose DELETE was never sent (revD, 077818c). The rule (core/run/notRun.ts: unsentRequestsIn):
// a request the file holds in another tool's form is a request not run wherever it stands, counted by the
// exit code, the summary and the reports like a gRPC request.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

void describe('a request written as a curl command is sent or the run fails (apiwb run)', () => {
  let server: LocalServer;
  const seen: string[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-revD-curl-', (req, res) => {
      seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  after(async () => { await server.close(); });

  void it('a curl request that is not sent makes the run exit 1, as a gRPC request does', async () => {
    const file = join(server.dir, 'rest-client.http');
    writeFileSync(file, '### health\nGET {{base}}/health\n\n### purge\ncurl -X DELETE {{base}}/cache\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    const sentDelete = seen.includes('DELETE /cache');
    assert.ok(sentDelete || r.code === 1, `the curl request was not sent, yet the run exited ${r.code}:\n${r.stdout}${r.stderr}\nserver saw: ${seen.join(', ')}`);
  });

  void it('the curl request is counted (2 requests, 1 failed), named with its file and line, and a JUnit failure', async () => {
    const file = join(server.dir, 'rest-client-counted.http');
    writeFileSync(file, '### health\nGET {{base}}/health\n\n### purge\ncurl -X DELETE {{base}}/cache\n');
    const report = join(server.dir, 'curl.xml');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--reporter', 'junit', '--report', report]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(seen, ['GET /health'], 'the other request of the file runs');
    assert.match(r.stdout, /rest-client-counted\.http:5.*not run.*REST Client/, r.stdout);
    assert.match(r.stdout, /^2 requests, 1 failed/m, r.stdout);
    assert.doesNotMatch(r.stdout, /not run: REST Client curl command/, 'said once, as a request not run, not also as a note');
    const xml = readFileSync(report, 'utf8');
    assert.match(xml, /tests="2"/, xml);
    assert.match(xml, /rest-client-counted\.http:5/, xml);
  });

  void it('a curl command in the block of a request (before its request line) is not run either, the request is sent', async () => {
    const file = join(server.dir, 'curl-in-block.http');
    writeFileSync(file, '### both\ncurl -X DELETE \\\n  {{base}}/cache\nGET {{base}}/health\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual(seen, ['GET /health'], r.stdout + r.stderr);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /curl-in-block\.http:2.*not run/, r.stdout);
  });

  void it('--name of another request leaves a curl block of the file out of the run (not a failure of it)', async () => {
    const file = join(server.dir, 'rest-client-named.http');
    writeFileSync(file, '### health\n# @name health\nGET {{base}}/health\n\n### purge\ncurl -X DELETE {{base}}/cache\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--name', 'health']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  void it('for comparison, a gRPC request not sent fails the run (holds on aa14ca2)', async () => {
    const file = join(server.dir, 'grpc.http');
    writeFileSync(file, '### health\nGET {{base}}/health\n\n### call\nGRPC {{base}}/svc.Cache/Purge\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
  });
});
