// Issue 29, item 1 over real HTTP on loopback: `apiwb run` never lets a secret reach an origin it is not
// bound to. The environment's servers are 127.0.0.1 (the API) and another port of it (the Token URL); the
// attacker's are another port of 127.0.0.1 and [::1]. A token under a header name no list holds
// (X-Api-Token), in a POST body, in a query parameter, base64 inside JSON; on 302/307 redirects and next
// links to the attacker; and the sign-in password: each case asserts what the attacker received (nothing
// secret), the line printed, the rows written, the walk's verdict and the exit code.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { json, listenBase, recorder, type Seen } from './localServer';

const TOKEN = jwt();
const PASSWORD = 'pw-of-ann-5678';
const SIGNED_IN = 'at-signed-in-91a2b3c4d5';

function jwt(): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'ann', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig-origins`;
}

/** Every form of every secret of the run an attacker could read back (plain, base64, URL-encoded). */
function secretTexts(): string[] {
  return [TOKEN, PASSWORD, SIGNED_IN].flatMap((s) => [s, encodeURIComponent(s), Buffer.from(s).toString('base64').slice(0, 16)]);
}

function assertNothingSecret(seen: readonly Seen[], where: string): void {
  const text = JSON.stringify(seen);
  for (const secret of secretTexts()) assert.ok(!text.includes(secret), `${where} received a secret: ${text}`);
}


void describe('secrets bound to origins (apiwb run over loopback)', () => {
  let dir: string;
  let envFile: string;
  let homeBase = '';
  let authBase = '';
  /** The attackers: another port, and another address ([::1]). */
  const elsewhere: { name: string; base: string; seen: Seen[]; server?: Server }[] = [
    { name: 'another port', base: '', seen: [] },
    { name: '[::1]', base: '', seen: [] },
  ];
  const homeSeen: Seen[] = [];
  const authSeen: Seen[] = [];
  const servers: Server[] = [];
  let target = 0;
  const other = (): (typeof elsewhere)[number] => elsewhere[target]!;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-origins-'));
    for (const place of elsewhere) {
      const server = recorder(place.seen, (_req, res) => json(res, { items: [{ id: 'x1' }, { id: 'x2' }], next_link: null }));
      servers.push(server);
      place.base = await listenBase(server, place.name === '[::1]' ? '::1' : '127.0.0.1');
    }
    const home = recorder(homeSeen, (req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/redirect302' || path === '/redirect307') {
        res.writeHead(path === '/redirect302' ? 302 : 307, { Location: `${other().base}/landing?from=home` }).end();
      } else if (path === '/paged') {
        json(res, { items: [{ id: 1 }, { id: 2 }, { id: 3 }], next_link: `${other().base}/page2` });
      } else {
        json(res, { items: [{ id: 'home' }] });
      }
    });
    const auth = recorder(authSeen, (req, res, body) => {
      if ((req.url ?? '').startsWith('/token-away')) {
        res.writeHead(307, { Location: `${other().base}/token` }).end();
        return;
      }
      const form = new URLSearchParams(body);
      if (form.get('password') !== PASSWORD) return json(res, { error: 'invalid_grant' }, 400);
      json(res, { access_token: SIGNED_IN, token_type: 'bearer', expires_in: 3600 });
    });
    servers.push(home, auth);
    homeBase = await listenBase(home);
    authBase = await listenBase(auth);
    envFile = join(dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({
      local: {
        base: homeBase,
        auth: authBase,
        Security: { Auth: { eng: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{auth}}/token', Username: 'ann' }, away: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{auth}}/token-away', Username: 'ann' } } },
        ApiWorkbench: { Auth: { svc: { Type: 'JWT Bearer' } } },
      },
    }));
  });

  after(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  function reset(): void {
    homeSeen.length = 0;
    authSeen.length = 0;
    for (const place of elsewhere) place.seen.length = 0;
  }

  async function run(name: string, text: string, extra: readonly string[] = []): Promise<{ code: number; stdout: string; stderr: string; out: string }> {
    reset();
    const file = join(dir, `${name}.http`);
    writeFileSync(file, text);
    const out = join(dir, `${name}.ndjson`);
    rmSync(out, { force: true });
    const r = await runInProcess([file, '--env', 'local', '--env-file', envFile, '--out', out, ...extra], {
      APIWB_SECRET_SVC_TOKEN: TOKEN, APIWB_SECRET_ENG_PASSWORD: PASSWORD, APIWB_SECRET_AWAY_PASSWORD: PASSWORD,
    });
    const printed = r.stdout + r.stderr;
    for (const secret of secretTexts()) assert.ok(!printed.includes(secret), `a secret was printed: ${printed}`);
    return { ...r, out: existsSync(out) ? readFileSync(out, 'utf8') : '' };
  }

  function rowsOf(out: string): unknown[] {
    return out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
  }

  for (const [index, place] of elsewhere.entries()) {
    void describe(`to ${place.name}`, () => {
      before(() => { target = index; });

      const refusals: [string, () => string][] = [
        ['a token under a header name no list holds', () => `GET ${other().base}/data\nX-Api-Token: {{$auth.token("svc")}}\n`],
        ['a token in a POST body', () => `POST ${other().base}/data\nContent-Type: application/json\n\n{"note": "hi", "auth": {"token": "{{$auth.token("svc")}}"}}\n`],
        ['a token in a query parameter', () => `GET ${other().base}/data?page=1&sig={{$auth.token("svc")}}\n`],
        ['a token base64-encoded inside a JSON body', () => `POST ${other().base}/data\nContent-Type: application/json\n\n{"blob": "${Buffer.from(JSON.stringify({ bearer: TOKEN })).toString('base64')}"}\n`],
        ['a token in a multipart body', () => `POST ${other().base}/upload\nContent-Type: multipart/form-data; boundary=XYZ\n\n--XYZ\nContent-Disposition: form-data; name="token"\n\n{{$auth.token("svc")}}\n--XYZ--\n`],
        ['the sign-in password typed into a request body', () => `POST ${homeBase}/api/notes\nContent-Type: text/plain\n\nremember: ${PASSWORD}\n`],
      ];
      for (const [what, http] of refusals) {
        void it(`${what}: not sent, exit 1, both origins named, the other origin receives nothing`, async () => {
          const r = await run('refused', http());
          assert.equal(r.code, 1, r.stdout);
          const password = what.includes('password');
          const to = password ? homeBase : other().base;
          // The environment's origins in the order they are listed (sorted: the ports decide).
          const belongs = password ? `${authBase} only` : `${[homeBase, authBase].sort().join(' and ')} only`;
          assert.match(r.stdout, new RegExp(`✗ .* not sent to ${escape(new URL(to).origin)}: .* carries the (token|password) of auth '(svc|eng)' .*which belongs to ${escape(belongs)}`), r.stdout);
          assert.equal(other().seen.length, 0, `${place.name} received no request at all`);
          if (password) assert.equal(homeSeen.length, 0, 'the API origin received nothing either');
          assert.equal(r.out, '', 'no row written');
        });
      }

      void it('a 302 redirect to it: followed without the header that carries the token, and the notice names it', async () => {
        const r = await run('r302', `GET ${homeBase}/redirect302\nX-Api-Token: {{$auth.token("svc")}}\nAccept: application/json\n`);
        assert.equal(r.code, 0, r.stdout);
        assert.match(r.stdout, new RegExp(`redirected \\(302\\) to ${escape(other().base)}/landing\\?from=home, another origin: sent without header X-Api-Token`));
        assert.equal(other().seen.length, 1);
        assert.equal(other().seen[0]?.headers['x-api-token'], undefined);
        assert.equal(other().seen[0]?.headers['accept'], 'application/json', 'other headers still go');
        assertNothingSecret(other().seen, place.name);
        assert.deepEqual(rowsOf(r.out), [{ id: 'x1' }, { id: 'x2' }]);
      });

      void it('a 307 redirect of a POST whose body carries the token: not followed, exit 1, nothing sent there', async () => {
        const r = await run('r307', `POST ${homeBase}/redirect307\nContent-Type: application/json\n\n{"token": "{{$auth.token("svc")}}"}\n`);
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stdout, /the server redirected \(307\): the redirect goes to another origin \(.*\) as a POST with a body; not followed/);
        assert.equal(other().seen.length, 0);
        assert.equal(r.out, '');
      });

      void it('a 307 redirect of a GET with nothing secret: the notice says nothing was dropped (and it is true)', async () => {
        const r = await run('r307plain', `GET ${homeBase}/redirect307\nAccept: application/json\n`);
        assert.equal(r.code, 0, r.stdout);
        assert.match(r.stdout, /another origin: it carried no credential, nothing was dropped/);
        assert.equal(other().seen.length, 1);
      });

      void it('a next link to it: page 2 goes without the token header and the Authorization, named; every row, complete', async () => {
        const r = await run('next', `# @paging generic next=next_link items=items\nGET ${homeBase}/paged\nX-Api-Token: {{$auth.token("svc")}}\nAuthorization: Bearer {{$auth.token("svc")}}\n`, ['--all-pages']);
        assert.equal(r.code, 0, r.stdout);
        assert.match(r.stdout, new RegExp(`page 2 is on another origin \\(${escape(other().base)}\\) than page 1 \\(${escape(homeBase)}\\): sent without header X-Api-Token, header Authorization`));
        assert.deepEqual(rowsOf(r.out).length, 5, 'three rows of page 1, two of page 2');
        assert.equal(other().seen.length, 1);
        assertNothingSecret(other().seen, place.name);
        assert.ok(!existsSync(`${join(dir, 'next.ndjson')}.apiwb-resume.json`), 'a complete walk leaves no checkpoint');
      });

      void it('a next link to it from a POST walk: refused (a body stays with its origin); page 1 kept, verdict failed, exit 1', async () => {
        const r = await run('nextpost', `# @paging generic next=next_link items=items\nPOST ${homeBase}/paged\nContent-Type: application/json\nX-Api-Token: {{$auth.token("svc")}}\n\n{"query": "all"}\n`, ['--all-pages']);
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stdout, /failed: after page 1 .*the next link goes to another origin \(.*\) as a POST with a body; not followed/);
        assert.equal(rowsOf(r.out).length, 3, 'the rows of page 1 are kept');
        assert.equal(other().seen.length, 0);
      });

      void it('sign-in: a Token URL that redirects (307) to it does not send the password there', async () => {
        const r = await run('signin', `GET ${homeBase}/api/items\nAuthorization: Bearer {{$auth.token("away")}}\n`);
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stdout, /away sign-in failed: .*redirect goes to another origin .* as a POST with a body; not followed/);
        assert.equal(other().seen.length, 0, 'the password never reached the other origin');
        assert.equal(authSeen.length, 1, 'the Token URL was asked once');
        assert.equal(homeSeen.length, 0, 'nothing was sent without a token');
      });
    });
  }

  void it('at home everything goes: the password to the Token URL only, the token to the API', async () => {
    const r = await run('home', `GET ${homeBase}/api/items\nAuthorization: Bearer {{$auth.token("eng")}}\nX-Api-Token: {{$auth.token("svc")}}\n`);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(authSeen.length, 1);
    assert.match(authSeen[0]?.body ?? '', /password=pw-of-ann-5678/);
    assert.equal(homeSeen.length, 1);
    assert.equal(homeSeen[0]?.headers['authorization'], `Bearer ${SIGNED_IN}`);
    assert.equal(homeSeen[0]?.headers['x-api-token'], TOKEN);
    assert.ok(!JSON.stringify(homeSeen).includes(PASSWORD), 'the API origin never sees the password');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
