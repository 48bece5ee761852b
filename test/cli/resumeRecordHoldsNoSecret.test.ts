// A resume checkpoint holds no secret in any part of its request (src/core/paging/checkpoint.ts,
// withoutSecrets; README: "With --out F a walk keeps its checkpoint in F.apiwb-resume.json (no secret in
// it)"). Credential headers and secret query values were left out, but the next request's body and URL
// path were kept as sent: a private env value in a POST walk's body under a plain field name, or in a
// page-headers walk's URL path, was written to disk when the walk failed at page 2. (That the walk then
// resumes with the key put back, rows exact: resumeRetakesSecretParts.test.ts.)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

void describe('a walk failing at page 2 leaves a checkpoint without the secret it sends', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-resume-no-secret-', (req, res) => {
      res.setHeader('content-type', 'application/json');
      const url = new URL(req.url ?? '/', 'http://x');
      const page = url.searchParams.get('page') ?? '1';
      if (url.pathname.startsWith('/keys/') && !url.searchParams.has('page')) {
        for (const [name, value] of [['Page', '1'], ['Per-Page', '1'], ['Total-Pages', '2'], ['Total-Results', '2']]) res.setHeader(`X-Pagination-${name!}`, value!);
        return void res.end(JSON.stringify([{ id: 1 }]));
      }
      if (url.pathname === '/post' && page === '1' && !req.url?.includes('p2')) return void res.end(JSON.stringify({ items: [{ id: 1 }], next: '/post/p2' }));
      res.statusCode = 500;
      res.end('{}');
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
  });
  after(() => server.close());

  const cases: [string, string][] = [
    ['a POST walk whose body carries the key', '# @paging generic next=next items=items\nPOST {{base}}/post\nContent-Type: application/json\n\n{"filter": "all", "sig": "{{apikey}}"}\n'],
    ['a page-headers walk whose URL path carries the key', '# @paging page-headers\nGET {{base}}/keys/{{apikey}}/items\n'],
  ];
  for (const [what, http] of cases) {
    void it(what, async () => {
      const name = what.startsWith('a POST') ? 'post' : 'path';
      writeFileSync(join(server.dir, `${name}.http`), http);
      const out = join(server.dir, `${name}.ndjson`);
      const r = await runInProcess([join(server.dir, `${name}.http`), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out]);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /failed at page 2/, r.stdout);
      const record = `${out}.apiwb-resume.json`;
      assert.ok(existsSync(record), 'a checkpoint is kept for --resume');
      const text = readFileSync(record, 'utf8');
      assert.ok(!text.includes(KEY), `the checkpoint holds the key:\n${text}`);
    });
  }
});
