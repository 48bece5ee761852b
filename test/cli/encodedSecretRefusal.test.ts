// A refused redirect hop is named in words and in the JUnit <failure>; its URL may carry the secret in an
// encoded form (a server answering 302 to a URL holding base64url of the token it was sent). The built
// `apiwb run` over loopback: the hop is refused, and no form of the secret is printed or reported.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from './sandboxEnv';
import { runCli } from './cliProcess';

const SECRET = 's3cr3tTokenValue';
const FORMS = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('base64url'), Buffer.from(SECRET).toString('base64').replace(/=+$/, '')];

void describe('a refused hop whose URL holds an encoded secret (apiwb run over loopback)', () => {
  let dir: string;
  let cli: string;
  const servers: Server[] = [];
  let otherHits = 0;

  async function listen(server: Server): Promise<string> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  let homeBase = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-encsecret-'));
    const otherBase = await listen(createServer((req, res) => {
      otherHits++;
      req.resume();
      res.writeHead(200).end('{}');
    }));
    homeBase = await listen(createServer((req, res) => {
      req.resume();
      const token = String(req.headers['x-tok'] ?? '');
      res.writeHead(302, { Location: `${otherBase}/leakb/${Buffer.from(token).toString('base64url')}` }).end();
    }));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: homeBase } }));
    cli = await buildCli(dir);
  });

  after(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('refuses the hop; the message and the JUnit report hold no form of the secret', async () => {
    const file = join(dir, 'b64.http');
    writeFileSync(file, `GET ${homeBase}/b64\nX-Tok: {{$processEnv TOK}}\n`);
    const report = join(dir, 'b64.xml');
    const r = await runCli(cli, ['run', file, '--env', 'local', '--env-file', join(dir, 'http-client.env.json'), '--reporter', 'junit', '--report', report], { TOK: SECRET });
    const output = r.stdout + r.stderr;
    const junit = readFileSync(report, 'utf8');
    assert.notEqual(r.code, 0, output);
    assert.equal(otherHits, 0, 'the other origin received the hop');
    assert.match(output, /not sent to/);
    assert.match(junit, /<failure|<error/);
    for (const form of FORMS) {
      assert.ok(!output.includes(form), `${form} in the output:\n${output}`);
      assert.ok(!junit.includes(form), `${form} in the JUnit report:\n${junit}`);
    }
  });
});
