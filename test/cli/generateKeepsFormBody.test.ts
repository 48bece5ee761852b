// Generated code sends the body `apiwb run` sends: an `application/x-www-form-urlencoded` body goes to
// httpsnippet as the form's pairs (HAR postData.params; given as text alone it prints an empty body), so
// every language writes the pairs, and a value that needs encoding (`bern x&y`) arrives as one field.
// The curl and Python snippets are run against a loopback server of the test's own, which says what it got.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SNIPPET_IDS } from '../../src/core/codegen';
import { generated } from './generateProcess';

const exec = promisify(execFile);

void describe('apiwb generate keeps a form body', () => {
  let dir = '';
  let server: Server;
  const received: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { body += chunk; });
      req.on('end', () => {
        received.push(body);
        res.setHeader('Content-Type', 'application/json');
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    dir = mkdtempSync(join(tmpdir(), 'apiwb-genform-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: `http://127.0.0.1:${port}` } }));
    writeFileSync(join(dir, 'g.http'), ['# @name form', 'POST {{base}}/login', 'Content-Type: application/x-www-form-urlencoded', '', 'user=ann&city=bern+x%26y', ''].join('\n'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  for (const lang of SNIPPET_IDS) {
    void it(`${lang}: the code holds the form's pairs`, async () => {
      const r = await generated([join(dir, 'g.http'), '--name', 'form', '--lang', lang, '--env', 'local'], {});
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /ann/, `the form body is missing from the generated code:\n${r.stdout}`);
      assert.match(r.stdout, /bern/);
    });
  }

  const runners: ReadonlyArray<readonly [string, (file: string) => readonly [string, string[]]]> = [['curl', (f) => ['sh', [f]]], ['python', (f) => ['python3', [f]]]];
  for (const [lang, run] of runners) {
    void it(`${lang}: the code run sends user=ann and city="bern x&y"`, async () => {
      const r = await generated([join(dir, 'g.http'), '--name', 'form', '--lang', lang, '--env', 'local'], {});
      assert.equal(r.code, 0, r.stderr);
      const file = join(dir, `snippet-${lang}`);
      writeFileSync(file, r.stdout);
      received.length = 0;
      const [command, args] = run(file);
      await exec(command, args);
      assert.equal(received.length, 1, `the server got ${received.length} requests`);
      assert.deepEqual(Object.fromEntries(new URLSearchParams(received[0])), { user: 'ann', city: 'bern x&y' }, `${lang} sent ${received[0]}:\n${r.stdout}`);
    });
  }
});
