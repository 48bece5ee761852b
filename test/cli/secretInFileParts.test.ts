// A held secret read from a file the request names is held like one typed into it: a multipart part's
// `< ./file` and a `<@latin1 ./file` body (both read since this pass) go through the one send boundary, so
// a token in them is not sent to an origin it is not bound to, and is never printed. The environment's
// origin is one port of 127.0.0.1; the other origin is another port, which must receive nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { json, listenBase, recorder, type Seen } from './localServer';

const TOKEN = 'tok-held-in-a-file-4f3e2d1c';

void describe('a held secret read from a file the request names', () => {
  let dir = '';
  let envFile = '';
  let homeBase = '';
  let otherBase = '';
  const otherSeen: Seen[] = [];
  const homeSeen: Seen[] = [];
  const servers: Server[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-file-parts-secret-'));
    const home = recorder(homeSeen, (_req, res) => json(res, { ok: true }));
    const other = recorder(otherSeen, (_req, res) => json(res, { ok: true }));
    servers.push(home, other);
    homeBase = await listenBase(home);
    otherBase = await listenBase(other);
    envFile = join(dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({ local: { base: homeBase, ApiWorkbench: { Auth: { svc: { Type: 'JWT Bearer' } } } } }));
    writeFileSync(join(dir, 'part.txt'), `the token is ${TOKEN}\n`);
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from(`caf\u00e9 {{$auth.token("svc")}}\n`, 'latin1'));
  });

  after(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(name: string, text: string): Promise<{ code: number; printed: string }> {
    otherSeen.length = 0;
    homeSeen.length = 0;
    const file = join(dir, `${name}.http`);
    writeFileSync(file, text);
    const r = await runInProcess([file, '--env', 'local', '--env-file', envFile], { APIWB_SECRET_SVC_TOKEN: TOKEN });
    const printed = r.stdout + r.stderr;
    assert.ok(!printed.includes(TOKEN), `the token was printed: ${printed}`);
    return { code: r.code, printed };
  }

  const multipart = (base: string): string =>
    `POST ${base}/upload\nContent-Type: multipart/form-data; boundary=XYZ\n\n--XYZ\nContent-Disposition: form-data; name="f"; filename="part.txt"\n\n< ./part.txt\n--XYZ--\n`;

  void it('a multipart part whose file holds the token: not sent to the other origin, exit 1, the token not printed', async () => {
    const r = await run('multipart-away', multipart(otherBase));
    assert.equal(r.code, 1, r.printed);
    assert.equal(otherSeen.length, 0, `the other origin received: ${JSON.stringify(otherSeen)}`);
  });

  void it('the same part to the environment\'s own origin is sent, with the file\'s content', async () => {
    const r = await run('multipart-home', multipart(homeBase));
    assert.equal(r.code, 0, r.printed);
    assert.equal(homeSeen.length, 1);
    assert.ok(homeSeen[0]!.body.includes(TOKEN), 'the part carries the file');
  });

  void it('a <@latin1 body whose file names the token: not sent to the other origin, exit 1', async () => {
    const r = await run('latin1-away', `POST ${otherBase}/notes\nContent-Type: text/plain\n\n<@latin1 ./latin1.txt\n`);
    assert.equal(r.code, 1, r.printed);
    assert.equal(otherSeen.length, 0, `the other origin received: ${JSON.stringify(otherSeen)}`);
  });
});
