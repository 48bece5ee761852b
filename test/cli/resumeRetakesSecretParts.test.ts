// A resume checkpoint holds no secret, in any part of its request (src/core/paging/checkpoint.ts): a
// secret held in a POST body, a URL path or a body beside the walk's position field is blanked in
// F.apiwb-resume.json, and `--resume` takes those parts back from the request prepared afresh, so the
// walk goes on to its end with the secret where the request puts it and the rows exact. The server
// answers 400 to a request without the key where it belongs: a resume that sent a blank would fail.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

interface Seen { readonly url: string; readonly body: string }

void describe('--resume of a walk whose body or path carries a secret', () => {
  let server: LocalServer;
  let failing = true;
  const seen: Seen[] = [];
  before(async () => {
    server = await startLocalServer('apiwb-resume-secret-parts-', (req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      req.on('end', () => {
        seen.push({ url: req.url ?? '', body: text });
        res.setHeader('content-type', 'application/json');
        const url = new URL(req.url ?? '/', 'http://x');
        const body = text ? JSON.parse(text) as Record<string, unknown> : {};
        const keyed = url.pathname.startsWith('/keys/') ? url.pathname === `/keys/${KEY}/items` : body.sig === KEY && body.filter === 'all';
        if (!keyed) return void res.writeHead(400).end('{"message":"no key"}');
        const second = url.pathname.endsWith('/p2') || url.searchParams.get('page') === '2' || body.offset === 1;
        if (second && failing) return void res.writeHead(500).end('{}');
        if (url.pathname.startsWith('/keys/')) {
          const page = second ? '2' : '1';
          for (const [name, value] of [['Page', page], ['Per-Page', '1'], ['Total-Pages', '2'], ['Total-Results', '2']]) res.setHeader(`X-Pagination-${name!}`, value!);
          return void res.end(JSON.stringify([{ id: Number(page) }]));
        }
        if (url.pathname.startsWith('/offset')) return void res.end(JSON.stringify({ items: second ? [{ id: 2 }] : body.offset === 0 ? [{ id: 1 }] : [] }));
        res.end(JSON.stringify(second ? { items: [{ id: 2 }] } : { items: [{ id: 1 }], next: '/post/p2' }));
      });
    });
    writeFileSync(join(server.dir, 'http-client.private.env.json'), JSON.stringify({ local: { apikey: KEY } }));
  });
  after(() => server.close());

  const cases: Record<string, string> = {
    'a POST walk following next links, the key in its body': '# @paging generic next=next items=items\nPOST {{base}}/post\nContent-Type: application/json\n\n{"filter": "all", "sig": "{{apikey}}"}\n',
    'a page-headers walk, the key in its URL path': '# @paging page-headers\nGET {{base}}/keys/{{apikey}}/items\n',
    'a POST walk by a body offset, the key beside it': '# @paging generic offset=offset in=body items=items\nPOST {{base}}/offset\nContent-Type: application/json\n\n{"filter": "all", "sig": "{{apikey}}", "offset": 0}\n',
  };
  for (const [what, http] of Object.entries(cases)) {
    void it(what, async () => {
      const name = what.replace(/\W+/g, '-');
      writeFileSync(join(server.dir, `${name}.http`), http);
      const out = join(server.dir, `${name}.ndjson`);
      const args = [join(server.dir, `${name}.http`), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out];
      failing = true;
      const first = await runInProcess(args);
      assert.equal(first.code, 1, first.stdout + first.stderr);
      assert.match(first.stdout, /failed at page 2/, first.stdout);
      const record = readFileSync(`${out}.apiwb-resume.json`, 'utf8');
      assert.ok(!record.includes(KEY) && !record.includes(encodeURIComponent(KEY)), `the checkpoint holds the key:\n${record}`);

      failing = false;
      seen.length = 0;
      const resumed = await runInProcess([...args, '--resume']);
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      assert.equal(seen.length >= 1, true);
      assert.ok(!seen.some((s) => s.body.includes('no key')), JSON.stringify(seen));
      assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as unknown), [{ id: 1 }, { id: 2 }]);
      // The resume started at page 2 (nothing fetched twice).
      assert.ok(!seen.some((s) => s.url === '/post' || s.url === `/keys/${KEY}/items` || s.body.includes('"offset":0')), JSON.stringify(seen));
    });
  }
});
