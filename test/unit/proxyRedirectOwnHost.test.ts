// A request is sent as written: through an http proxy, a redirect to another origin went with the Host
// header of the first origin (without a proxy the second hop's Host was its own). undici's proxy
// dispatcher adds `host` to the headers object it is handed, and the client handed it the request's own,
// from which the redirect's hop is made; the client now hands it a copy (src/core/http/client.ts). And a
// Host header written in the request names the origin it was written for: the cross-origin rule
// (src/core/secrets/crossOrigin.ts) keeps it from another origin. A proxy of the test's own on 127.0.0.1
// answers the first hop with a 302 to another origin and records each request's Host.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

void describe('a redirect to another origin through a proxy', () => {
  let files: LocalServer;
  let proxy: Server;
  let proxyUrl = '';
  const seen: { url: string; host: string }[] = [];
  before(async () => {
    files = await startLocalServer('apiwb-proxyhost-', (req, res) => res.end());
    proxy = createServer((req, res) => {
      seen.push({ url: req.url ?? '', host: String(req.headers.host) });
      if ((req.url ?? '').includes('first.invalid')) res.writeHead(302, { location: 'http://second.invalid/b' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await files.close();
  });

  void it('the second hop carries its own Host', async () => {
    const file = join(files.dir, 'hop.http');
    writeFileSync(file, 'GET http://first.invalid/a\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', files.envFile, '--proxy', proxyUrl]);
    const second = seen.find((s) => s.url.includes('second.invalid'));
    assert.ok(second, `the redirect was not followed (exit ${r.code}): ${r.stdout}${r.stderr}`);
    assert.equal(second.host, 'second.invalid', `requests seen by the proxy: ${JSON.stringify(seen)}`);
  });

  void it('a Host header written in the request stays with its origin', async () => {
    const file = join(files.dir, 'written.http');
    writeFileSync(file, 'GET http://first.invalid/w\nHost: first.invalid\n');
    seen.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', files.envFile, '--proxy', proxyUrl]);
    assert.deepEqual(seen.map((s) => s.host), ['first.invalid', 'second.invalid'], `requests seen by the proxy (exit ${r.code}): ${JSON.stringify(seen)} ${r.stderr}`);
  });
});
