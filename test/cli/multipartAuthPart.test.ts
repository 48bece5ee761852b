// A multipart part written `<@ ./file` has its {{variables}} replaced, $auth too: the file's
// {{$auth.token("svc")}} is fetched as the request's own would be (prepareRequest.ts: includedText, the
// one reader of the `< file` body and of every part), so the part goes out with the token, never with the
// reference unreplaced, and the request is not refused for a value it could have had. The token is never
// printed. Over real HTTP: the test's own server on 127.0.0.1 (port 0) records what it receives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { runInProcess } from './inProcess';
import { json, recorder, startLocalServer, type LocalServer, type Seen } from './localServer';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

function jwt(): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'part', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig-multipart-part`;
}

const TOKEN = jwt();

void describe('a <@ multipart part that names $auth', () => {
  let server: LocalServer;
  let home: Server;
  const seen: Seen[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-multipart-auth-', (_req, res) => res.end());
    home = recorder(seen, (_req, res) => json(res, { ok: true }));
    await new Promise<void>((resolve) => home.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(home.address() as AddressInfo).port}`;
    writeFileSync(server.envFile, JSON.stringify({ local: { base, ApiWorkbench: { Auth: { svc: { Type: 'JWT Bearer' } } } } }));
    writeFileSync(join(server.dir, 'auth-part.txt'), 'Authorization: Bearer {{$auth.token("svc")}}\n');
  });

  after(async () => {
    await new Promise<void>((resolve) => home.close(() => resolve()));
    await server.close();
  });

  const run = async (name: string, text: string): Promise<{ code: number; printed: string }> => {
    seen.length = 0;
    const file = join(server.dir, `${name}.http`);
    writeFileSync(file, text);
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile], { APIWB_SECRET_SVC_TOKEN: TOKEN });
    const printed = r.stdout + r.stderr;
    assert.ok(!printed.includes(TOKEN), 'the token was printed');
    return { code: r.code, printed };
  };

  const upload = (partLine: string): string =>
    `POST {{base}}/upload\nContent-Type: multipart/form-data; boundary=XYZ\n\n--XYZ\nContent-Disposition: form-data; name="note"\n\n${partLine}\n--XYZ--\n`;

  void it('the part goes out with the token in place of {{$auth.token("svc")}}', async () => {
    const r = await run('auth-part', upload('<@ ./auth-part.txt'));
    assert.equal(r.code, 0, r.printed);
    assert.equal(seen.length, 1, r.printed);
    const body = seen[0]!.body;
    assert.ok(!body.includes('{{$auth'), 'the reference went out unreplaced');
    assert.ok(body.includes(`Authorization: Bearer ${TOKEN}\n`), 'the part does not carry the token');
  });

  void it('written `< ./file` (no substitution), the part goes as the file holds it', async () => {
    const r = await run('plain-part', upload('< ./auth-part.txt'));
    assert.equal(r.code, 0, r.printed);
    assert.ok(seen[0]!.body.includes('Authorization: Bearer {{$auth.token("svc")}}\n'));
  });

  void it('a <@ body (not multipart) that names $auth is fetched the same way', async () => {
    const r = await run('auth-body', 'POST {{base}}/notes\nContent-Type: text/plain\n\n<@ ./auth-part.txt\n');
    assert.equal(r.code, 0, r.printed);
    assert.equal(seen[0]!.body, `Authorization: Bearer ${TOKEN}\n`);
  });
});
