// A server that echoes the request's own credential into its rows: `apiwb run --out` must not write the
// token that this very request signed in for (it is learnt during the request, before its rows arrive).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildCli, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';
import { runCli } from './cliProcess';

void describe('--out and a server that echoes the credential', () => {
  let ws: SandboxWorkspace;
  let cli: string;
  let echo: Server;
  let seen = '';
  before(async () => {
    ws = await openSandboxWorkspace();
    cli = await buildCli(ws.dir);
    echo = createServer((req, res) => {
      seen = req.headers.authorization ?? '';
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ echo: seen }, { plain: 'row' }]));
    });
    echo.listen(0, '127.0.0.1');
    await once(echo, 'listening');
  });
  after(async () => {
    echo.close();
    await ws.close();
  });

  for (const allPages of [false, true]) {
    void it(`the signed-in token is masked in the rows written${allPages ? ' by a walk' : ''}`, async () => {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/echo`;
      const file = join(ws.dir, 'echo.http');
      writeFileSync(file, `# @name echo\nGET ${url}\nAuthorization: Bearer {{$auth.token("engagement")}}\n`);
      const out = join(ws.dir, `echo-${allPages}.ndjson`);
      // The echo server is one of the environment's hosts: the token may go there (and only to its hosts).
      const envFile = join(ws.dir, 'echo.env.json');
      const envs = JSON.parse(readFileSync(ws.envFile, 'utf8')) as Record<string, Record<string, unknown>>;
      writeFileSync(envFile, JSON.stringify({ ...envs, sandbox: { ...envs['sandbox'], echo_base_url: url } }));
      const result = await runCli(cli, ['run', file, '--env', 'sandbox', '--env-file', envFile, '--out', out, ...(allPages ? ['--all-pages'] : [])], ws.secrets);
      assert.match(seen, /^Bearer .{8,}/, 'the server saw a signed-in token');
      const token = seen.slice('Bearer '.length);
      const written = readFileSync(out, 'utf8');
      assert.ok(!written.includes(token), `the token reached --out: ${written}`);
      assert.equal(written, '{"echo":"Bearer ***"}\n{"plain":"row"}\n', result.stdout + result.stderr);
    });
  }
});
