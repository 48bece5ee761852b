// A REST Client file may write a request as a curl command (REST Client sends it like any other). `apiwb
// run` does not send it; its help promises exit 1 for "a request not run (… a construct or kind it cannot
// send; said with its file and line)", as it does for a gRPC request. On aa14ca2 the curl request is said
// with a "·" line but the run exits 0 and the summary counts "1 request, 0 failed": CI reports success
// for a file whose DELETE was never sent.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
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

  void it('for comparison, a gRPC request not sent fails the run (holds on aa14ca2)', async () => {
    const file = join(server.dir, 'grpc.http');
    writeFileSync(file, '### health\nGET {{base}}/health\n\n### call\nGRPC {{base}}/svc.Cache/Purge\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
  });
});
