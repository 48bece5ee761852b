// A `<@ ./file` multipart part that reads an earlier request's response (`{{login.response.body.$.id}}`)
// is counted among the names the run reads later, as a `<@` body's are (runPlan.ts: filesReadBy lists the
// files a request reads, and the check before sending finds the names of each `<@` one there): so the
// earlier response is kept for it, and the part goes out with the value. Over real HTTP: the test's own
// server on 127.0.0.1 (port 0) records what it receives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('a <@ part that reads an earlier response', () => {
  let server: LocalServer;
  const bodies: string[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-part-reads-', (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        if (req.url === '/upload' || req.url === '/notes') bodies.push(body);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"session-7f3a"}');
      });
    });
    writeFileSync(join(server.dir, 'part.txt'), 'session {{login.response.body.$.id}}\n');
  });

  after(async () => { await server.close(); });

  const run = async (name: string, second: string): Promise<{ code: number; said: string }> => {
    bodies.length = 0;
    const file = join(server.dir, `${name}.http`);
    writeFileSync(file, `# @name login\nPOST {{base}}/login\n\n###\n${second}`);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    return { code: r.code, said: r.stdout + r.stderr };
  };

  void it('multipart: the part goes out with the earlier response\'s value', async () => {
    const r = await run('part', 'POST {{base}}/upload\nContent-Type: multipart/form-data; boundary=XYZ\n\n--XYZ\nContent-Disposition: form-data; name="note"\n\n<@ ./part.txt\n--XYZ--\n');
    assert.equal(r.code, 0, r.said);
    assert.equal(bodies.length, 1, r.said);
    assert.ok(bodies[0]!.includes('session session-7f3a\n'), bodies[0]);
  });

  void it('a <@ body: the same (as before)', async () => {
    const r = await run('body', 'POST {{base}}/notes\nContent-Type: text/plain\n\n<@ ./part.txt\n');
    assert.equal(r.code, 0, r.said);
    assert.equal(bodies[0], 'session session-7f3a\n');
  });
});
