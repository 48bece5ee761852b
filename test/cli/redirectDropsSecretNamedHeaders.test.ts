// Adversarial review (invariant: no credential reaches another origin). A redirect to another origin must
// go "without every part that carries a credential (by its name or because it holds a secret)" (README,
// The CLI). A query parameter is dropped by its name through the vocabulary's isSecretName
// (`service_token`), but a header is dropped by name only when it is in CREDENTIAL_HEADER_NAMES: a header
// the same vocabulary calls a secret (`X-Service-Token`, `Api-Token`, `X-Client-Password`) with a value written
// in the request goes to the other origin, and the line says "it carried no credential, nothing was dropped".
// The rule lives in src/core/secrets/crossOrigin.ts (withoutCredentials).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { json, listenBase, recorder, type Seen } from './localServer';

void describe('rev: a redirect to another origin drops headers named as secrets', () => {
  let dir = '';
  let home = '';
  let away = '';
  const awaySeen: Seen[] = [];
  const servers: Server[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-rev-redirect-'));
    const awayServer = recorder(awaySeen, (_req, res) => json(res, { items: [{ id: 1 }] }));
    const homeServer = recorder([], (_req, res) => { res.writeHead(302, { Location: `${away}/landing` }).end(); });
    servers.push(awayServer, homeServer);
    away = await listenBase(awayServer, '::1');
    home = await listenBase(homeServer);
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: home } }));
    writeFileSync(join(dir, 'r.http'), [
      '# @name named',
      'GET {{base}}/start',
      'X-Service-Token: literal-service-token-123456',
      'Api-Token: literal-api-token-654321',
      'X-Client-Password: literal-client-password-777777',
      '',
    ].join('\n'));
  });

  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  void it('sends none of them to the redirect target, and says it dropped them', async () => {
    const result = await runInProcess([join(dir, 'r.http'), '--env', 'local', '--env-file', join(dir, 'http-client.env.json')]);
    const received = JSON.stringify(awaySeen);
    for (const value of ['literal-service-token-123456', 'literal-api-token-654321', 'literal-client-password-777777']) {
      assert.ok(!received.includes(value), `the other origin (${away}) received ${value}: ${received}\n${result.stdout}`);
    }
    assert.doesNotMatch(result.stdout, /nothing was dropped/, result.stdout);
  });
});
