// `apiwb compare` reads http-client.private.env.json as `apiwb run` does (issue 32; the one loader,
// loadRunEnvironment), over real HTTP on loopback: each side's private value is layered over its own
// environment, reaches only that environment's origin (never the other side's, never an origin no
// environment names: refused and said), and is printed nowhere — not on stdout, stderr or in --out.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';

const ALPHA_PASS = 'alpha-private-pass-6c1f0e93';
const BETA_PASS = 'beta-private-pass-2d7b4a58';

interface Seen { readonly url: string; readonly pass: string | undefined }

/** A server that records the X-Pass header it gets and answers two rows, the second echoing the header. */
function recorder(log: Seen[]): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const pass = typeof req.headers['x-pass'] === 'string' ? req.headers['x-pass'] : undefined;
    log.push({ url: req.url ?? '', pass });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items: [{ code: 'one', size: 1 }, { code: 'echo', said: pass ?? '' }] })));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

void describe('apiwb compare reads the private env file each side\'s environment has', () => {
  const seen = { alpha: [] as Seen[], beta: [] as Seen[], nowhere: [] as Seen[] };
  const servers = [recorder(seen.alpha), recorder(seen.beta), recorder(seen.nowhere)];
  let dir = '';
  let file = '';
  let nowhere = '';
  let alphaOrigin = '';
  let betaOrigin = '';

  before(async () => {
    const [alpha, beta, third] = await Promise.all(servers.map(listen));
    nowhere = third!;
    [alphaOrigin, betaOrigin] = [alpha!, beta!];
    dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-private-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ alpha: { base_url: alpha, tag: 'shared-tag' }, beta: { base_url: beta } }));
    writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ alpha: { tag: ALPHA_PASS }, beta: { tag: BETA_PASS } }));
    file = join(dir, 'items.http');
    writeFileSync(file, `# @name items\nGET {{base_url}}/items\nX-Pass: {{tag}}\n\n###\n# @name elsewhere\nGET ${nowhere}/items\nX-Pass: {{tag}}\n`);
  });
  after(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const clear = (): void => { for (const log of Object.values(seen)) log.length = 0; };

  void it('each side sends its own private value to its own origin only, and prints none', async () => {
    clear();
    const out = join(dir, 'diffs.ndjson');
    const result = await commandInProcess(compareCommand, [file, '--env', 'alpha', '--against', 'beta', '--name', 'items', '--key', 'code', '--out', out]);
    // The private file overrides the shared value of alpha, and gives beta the variable it lacks.
    assert.deepEqual(seen.alpha, [{ url: '/items', pass: ALPHA_PASS }]);
    assert.deepEqual(seen.beta, [{ url: '/items', pass: BETA_PASS }]);
    // Each side's echo is that side's secret: masked in the rows before they are compared or written,
    // so the two masked echoes are the same record (secret values are never compared, nor shown).
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /✓ items .*agree: added 0, removed 0, changed 0, unchanged 2\n/);
    const written = readFileSync(out, 'utf8');
    for (const text of [result.stdout, result.stderr, written]) {
      assert.ok(!text.includes(ALPHA_PASS) && !text.includes(BETA_PASS), `a private value was printed:\n${text}`);
    }
  });

  void it('a private value bound for its environment\'s origins is refused on its way anywhere else, and said', async () => {
    clear();
    const result = await commandInProcess(compareCommand, [file, '--env', 'alpha', '--against', 'beta', '--name', 'elsewhere']);
    assert.deepEqual(seen.nowhere, [], 'the origin no environment names got nothing');
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /✗ elsewhere /);
    assert.match(result.stdout, /\n {4}neither side answered: nothing was compared\n/);
    // Each side says why: its own value, bound to its own environment's origin.
    const line = (side: string): string => result.stdout.split('\n').find((l) => l.startsWith(`    ${side}: no response`)) ?? '';
    assert.match(line('A'), new RegExp(`not sent to ${nowhere}: header X-Pass carries the variable 'tag' of \\S*http-client\\.private\\.env\\.json, which belongs to ${alphaOrigin} only$`));
    assert.match(line('B'), new RegExp(`not sent to ${nowhere}: header X-Pass carries the variable 'tag' of \\S*http-client\\.private\\.env\\.json, which belongs to ${betaOrigin} only$`));
    assert.ok(!result.stdout.includes(ALPHA_PASS) && !result.stdout.includes(BETA_PASS) && !result.stderr.includes(ALPHA_PASS));
  });
});
