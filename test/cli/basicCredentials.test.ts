// `Authorization: Basic user:password` (and `Basic user password`), as REST Client, httpYac and the JetBrains
// HTTP Client let one write it and as a Postman import writes it, goes base64-encoded: over real HTTP the
// sandbox's fundraising service accepts the permission name and a service key read from the private env
// file. The encoded credential is still the private value's: on its way to another origin it is refused.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';

void describe('a written-out Basic credential', () => {
  let w: SandboxWorkspace;
  let other: Server;
  let otherBase = '';
  const otherSeen: string[] = [];

  before(async () => {
    w = await openSandboxWorkspace();
    writeFileSync(join(w.dir, 'http-client.private.env.json'), JSON.stringify({ sandbox: { service_key: w.descriptor.credentials.fundraising.fullAccess.serviceKey } }));
    other = createServer((req, res) => { otherSeen.push(JSON.stringify(req.headers)); res.end('{}'); });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => other.close(() => resolve()));
    await w.close();
  });

  for (const separator of [':', ' ']) {
    void it(`Basic {{permission_name}}${separator}{{service_key}} signs in to the fundraising service`, async () => {
      const file = join(w.dir, `basic${separator === ':' ? 'colon' : 'space'}.http`);
      writeFileSync(file, `GET {{fundraising_base_url}}/v1/constituents?limit=2\nAuthorization: Basic {{permission_name}}${separator}{{service_key}}\nX-API-Key: {{tenant_code}}\n`);
      const r = await runInProcess([file, '--env', 'sandbox', '--env-file', w.envFile]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /\b200\b/);
      for (const secret of w.secretValues) assert.ok(!(r.stdout + r.stderr).includes(secret), 'a secret was printed');
    });
  }

  void it('the encoded credential is refused on its way to an origin the environment does not name', async () => {
    const file = join(w.dir, 'elsewhere.http');
    writeFileSync(file, `GET ${otherBase}/collect\nAuthorization: Basic {{permission_name}}:{{service_key}}\n`);
    const r = await runInProcess([file, '--env', 'sandbox', '--env-file', w.envFile]);
    assert.notEqual(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(otherSeen, [], 'the other origin received nothing');
  });
});
